import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { openApiDocument } from "./document.ts";

type Parameter = { name: string; in: string; example?: unknown; examples?: unknown; schema?: { example?: unknown; examples?: unknown } };
type Operation = { parameters?: Parameter[]; responses?: Record<string, { content?: Record<string, unknown> }> };

describe("OpenAPI 3.1 document", () => {
  const app = createApp();
  const spec = app.getOpenAPI31Document(openApiDocument);
  const operations = Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );

  it("describes every route the app serves", () => {
    const documented = operations.map((o) => `${o.method} ${o.path}`);
    const served = app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => `${r.method.toLowerCase()} ${r.path}`)
      .filter((route) => route !== "get /openapi.json");
    for (const route of served) {
      // A catch-all parameter (`:source{.+}`, a path that holds slashes) is one Hono route that the
      // document lists as the operations it serves, each beginning where the parameter begins.
      const catchAll = /^(.*?):\w+\{\.\+\}$/.exec(route);
      if (catchAll) expect(documented.filter((path) => path.startsWith(catchAll[1]!.replace(/:(\w+)/g, "{$1}"))).length, route).toBeGreaterThan(0);
      else expect(documented).toContain(route.replace(/:(\w+)/g, "{$1}"));
    }
    expect(documented.length).toBeGreaterThanOrEqual(15);
  });

  it("declares bearer auth, the Idempotency-Key header on POSTs, and problem+json for errors", () => {
    expect(spec.components?.securitySchemes?.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { path, method, operation } of operations) {
      if (method === "post") {
        expect(operation.parameters?.some((p) => p.name.toLowerCase() === "idempotency-key" && p.in === "header"), path).toBe(true);
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400 && path !== "/healthz") {
          expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toContain("application/problem+json");
        }
      }
    }
  });

  it("never offers a fixed Idempotency-Key that /docs would send with every request", () => {
    for (const { path, method, operation } of operations) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.name.toLowerCase() !== "idempotency-key") continue;
        const offered = [parameter.example, parameter.examples, parameter.schema?.example, parameter.schema?.examples];
        expect(offered.filter((value) => value !== undefined), `${method} ${path}`).toEqual([]);
      }
    }
  });
});
