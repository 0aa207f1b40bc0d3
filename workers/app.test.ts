import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "./app.ts";
import { MAX_JSON_BODY_BYTES } from "./middleware/json-body.ts";
import { api, problemOf, seedCaller } from "./test-support/api.ts";
import { fetchWithEnv } from "./test-support/app-with-env.ts";

describe("HTTP semantics", () => {
  it("answers an unknown route with a 404 problem and a request id", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/nothing-here", { key: caller });
    const problem = await problemOf(res);
    expect(problem.status).toBe(404);
    expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect((await problemOf(await api("/nope"))).status).toBe(404);
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/account", { key: caller, method: "DELETE" });
    expect((await problemOf(res)).status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, PATCH");
  });

  it("answers a non-JSON body with 415", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/keys", { key: caller, body: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect((await problemOf(res)).status).toBe(415);
  });

  it("names the accepted forms of a union and the nearest field to a typo", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/image/optimize", { key: caller, json: { source: {}, options: { quality: "high", widht: 800 } } });
    const problem = await problemOf(res);
    expect(problem.status).toBe(400);
    expect(problem.errors).toContainEqual({ pointer: "/source", detail: "`source` needs exactly one of `url`, `base64`, `file_id`." });
    expect(problem.errors).toContainEqual({ pointer: "/options/widht", detail: "Unknown field `widht`; did you mean `width`?" });
    expect(problem.errors?.find(({ pointer }) => pointer === "/options/quality")?.detail).toMatch(/^`quality` is 1\.\.100 or one of `auto`, `auto:low`/);
  });

  it("answers malformed JSON with a 400 problem", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/keys", { key: caller, body: "{not json", headers: { "Content-Type": "application/json" } });
    expect((await problemOf(res)).status).toBe(400);
  });

  it("says an empty JSON body is empty, and what the route needs, where the reader would say only malformed", async () => {
    const caller = await seedCaller();
    for (const body of [undefined, ""]) {
      const problem = await problemOf(await api("/v1/keys", { key: caller, method: "POST", ...(body === undefined ? {} : { body }), headers: { "Content-Type": "application/json" } }));
      expect([problem.status, problem.type.endsWith("/invalid_json")]).toEqual([400, true]);
      expect(problem.detail).toBe("The request body is empty. POST /v1/keys takes a JSON object: send its fields (listed at /docs), or `{}` where none is required.");
    }
    // A POST that reads no body is not refused for lacking one.
    expect((await api("/v1/keys", { key: caller, method: "POST", json: {} })).status).toBe(201);
  });

  it("answers a body over the limit with 413 before reading it all", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/keys", {
      key: caller,
      body: "x",
      headers: { "Content-Type": "application/json", "Content-Length": String(MAX_JSON_BODY_BYTES + 1) },
    });
    expect((await problemOf(res)).status).toBe(413);
  });

  it("turns an unexpected exception into a 500 problem without internals", async () => {
    const app = createApp();
    app.get("/explode", () => {
      throw new Error("secret internal detail");
    });
    const res = await fetchWithEnv({}, new Request("http://api.test/explode"), app);
    const text = await res.clone().text();
    const problem = await problemOf(res);
    expect(problem.status).toBe(500);
    expect(problem.request_id).toBe(res.headers.get("X-Request-Id"));
    expect(text).not.toContain("secret internal detail");
  });

  it("serves only the image family on an image alias host", async () => {
    const caller = await seedCaller();
    const request = (path: string) =>
      fetchWithEnv(
        { IMAGE_ALIAS_HOSTS: "img.example.com", PDF_ALIAS_HOSTS: "pdf.example.com" },
        new Request(`http://img.example.com${path}`, { headers: { Authorization: `Bearer ${caller.secret}` } }),
      );
    const pdf = await problemOf(await request("/v1/pdf/analyze"));
    expect(pdf.status).toBe(404);
    expect(pdf.detail).toMatch(/img\.example\.com serves only \/v1\/image\//);
    expect((await problemOf(await request("/v1/xlsx/generate"))).status).toBe(404);
    expect((await request("/v1/account")).status).toBe(200);
  });

  it("reports each dependency on /healthz and 503 when the origin is down, with no internal text", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await fetchWithEnv({ ORIGIN_URL: "http://127.0.0.1:9" }, new Request("http://api.test/healthz"));
    expect(res.status).toBe(503);
    const text = await res.text();
    const health = JSON.parse(text) as { status: string; dependencies: Record<string, { status: string; error?: string }> };
    expect(health.status).toBe("degraded");
    expect(health.dependencies.d1!.status).toBe("ok");
    expect(health.dependencies.r2!.status).toBe("ok");
    expect(health.dependencies.origin!.status).toBe("down");
    expect(health.dependencies.origin!.error).toBeUndefined();
    expect(text).not.toMatch(/127\.0\.0\.1|refused|Error/i);
    // What failed is in the log instead.
    expect(logged.mock.calls.flat().join(" ")).toMatch(/healthz: origin is down/);
    logged.mockRestore();
    expect(env.DB).toBeDefined();
  });

  it("answers /healthz floods from one probe every few seconds, with the origin's pools", async () => {
    const first = await api("/healthz");
    const body = await first.json<{ checked_at: string; dependencies: { origin: { status: string; pools?: { pdf: { size: number; busy: number } } } } }>();
    expect(first.status).toBe(200);
    expect(body.dependencies.origin.status).toBe("ok");
    expect(body.dependencies.origin.pools?.pdf.size).toBeGreaterThanOrEqual(2);
    const again = await Promise.all(Array.from({ length: 5 }, () => api("/healthz").then((res) => res.json<{ checked_at: string }>())));
    expect(new Set(again.map((health) => health.checked_at))).toEqual(new Set([body.checked_at]));
  });
});
