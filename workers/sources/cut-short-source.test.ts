import { inject, describe, expect, it, vi } from "vitest";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { loopbackApi, originTransformUrl } from "../test-support/origin-requests.ts";
import { transformCharges } from "../test-support/transform-requests.ts";

// A host that declares a length and closes early (workers/test-support/hostile-upstream.ts), met
// by each way a source is fetched: a clear problem saying the body was cut short, never a 500.
const { truncatedUrl } = inject("testHostileUpstream");
const hostileBase = new URL("/", truncatedUrl).href;
const truncatedPath = new URL(truncatedUrl).pathname;

async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    return await work();
  } finally {
    warned.mockRestore();
  }
}

describe("a source whose body is cut short", () => {
  it("is 422 source_unreachable for a URL source, saying so", async () => {
    const caller = await seedCaller();
    const res = await quietly(() => loopbackApi("/v1/files", { key: caller, json: { source: { url: truncatedUrl } } }));
    const problem = await problemOf(res);
    expect([problem.status, problem.type]).toEqual([422, expect.stringMatching(/source_unreachable$/)]);
    expect(problem.detail).toMatch(/after 100 bytes of the 4096 it declared: the body was cut short/);
    expect((await (await api("/v1/files", { key: caller })).json<{ data: unknown[] }>()).data).toEqual([]);
  });

  it.each([
    ["an http origin", { base_url: hostileBase }],
    ["an S3 bucket", { s3: { endpoint: hostileBase.replace(/\/$/, ""), bucket: "photos", access_key_id: "AKID", secret_access_key: "secret" } }],
  ])("is 502 upstream_unavailable from %s, uncharged", async (_kind, origin) => {
    const caller = await seedCaller();
    expect((await loopbackApi("/v1/origins", { key: caller, json: { name: "cut", ...origin } })).status).toBe(201);
    const res = await quietly(() => loopbackApi(originTransformUrl(caller, "w_40", "cut", truncatedPath)));
    const problem = await problemOf(res);
    expect([problem.status, problem.type]).toEqual([502, expect.stringMatching(/upstream_unavailable$/)]);
    expect(problem.detail).toMatch(/the body was cut short/);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});
