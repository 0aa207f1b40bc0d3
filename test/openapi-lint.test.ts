import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../workers/app.ts";
import { openApiDocument } from "../workers/openapi/document.ts";

function specOf(app: ReturnType<typeof createApp>) {
  return app.getOpenAPI31Document(openApiDocument);
}

describe("OpenAPI 3.1 document", () => {
  const app = createApp();
  const spec = specOf(app);

  it("passes @redocly/cli lint with zero errors", () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(spec));
    writeFileSync(join(dir, "redocly.yaml"), "extends:\n  - recommended\n");
    let output: string;
    try {
      output = execFileSync("node_modules/.bin/redocly", ["lint", file, "--config", join(dir, "redocly.yaml"), "--format", "json"], {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    const report = JSON.parse(output) as { totals: { errors: number }; problems: { severity: string; message: string; location: { pointer: string }[] }[] };
    const errors = report.problems.filter((p) => p.severity === "error").map((p) => `${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("describes every route the app serves", () => {
    const served = app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    const documented = Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object).filter((k) => ["get", "post", "put", "patch", "delete"].includes(k)).map((m) => `${m} ${path}`),
    );
    for (const route of served) {
      if (route === "get /openapi.json") continue;
      expect(documented).toContain(route);
    }
    expect(documented.length).toBeGreaterThanOrEqual(6);
  });

  it("declares bearer auth, the Idempotency-Key header on POSTs, and problem responses", () => {
    expect(spec.components?.securitySchemes?.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const [path, item] of Object.entries(spec.paths ?? {})) {
      const post = (item as Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>).post;
      if (post) {
        expect(post.parameters?.some((p) => p.name.toLowerCase() === "idempotency-key" && p.in === "header"), path).toBe(true);
      }
      for (const operation of Object.values(item as Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (Number(status) >= 400 && path !== "/healthz") expect(Object.keys(response.content ?? {}), `${path} ${status}`).toContain("application/problem+json");
        }
      }
    }
  });
});
