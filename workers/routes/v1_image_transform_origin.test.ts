import { fileShardRows } from "../test-support/shard-rows.ts";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { problemOf, seedCaller, api } from "../test-support/api.ts";
import { loopbackApi, originTransformUrl, registerGeneratedOrigin } from "../test-support/origin-requests.ts";
import { transformCharges } from "../test-support/transform-requests.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { canonicalPath } from "../transform/check-signature.ts";

async function objectRow(accountId: string, path: string) {
  const rows = await fileShardRows<{ status: string; version: string | null; fresh_until: number }>(accountId, "SELECT status, version, fresh_until FROM origin_objects WHERE path = ?", path);
  return rows[0] ?? null;
}

describe("GET /v1/image/t/{key_id}/{transform}/{origin}/{path}", () => {
  it("fetches the original once, computes, then serves the edge cache with the original's freshness", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const miss = await loopbackApi(originTransformUrl(caller, "w_40,f_webp", "shop", "/photo.png"));
    expect(miss.status).toBe(200);
    expect([miss.headers.get("X-Cache"), miss.headers.get("X-Cache-Tier"), miss.headers.get("Content-Type")]).toEqual(["MISS", "compute", "image/webp"]);
    // The generated-files server sends no Cache-Control: 24 hours.
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(miss.headers.get("Cache-Control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(86_000);
    expect(maxAge).toBeLessThanOrEqual(86_400);
    const etag = miss.headers.get("ETag")!;
    const row = (await objectRow(caller.accountId, "/photo.png"))!;
    expect(row.status).toBe("ready");
    expect(etag.startsWith(`"${row.version!.slice(0, 12)}-`)).toBe(true);
    const bytes = new Uint8Array(await miss.arrayBuffer());
    expect((await decodePixels("webp", bytes)).width).toBe(40);

    const hit = await loopbackApi(originTransformUrl(caller, "f_webp,w_40", "shop", "/photo.png"));
    expect([hit.headers.get("X-Cache-Tier"), hit.headers.get("ETag")]).toEqual(["edge", etag]);
    expect(hit.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+$/);
    expect(new Uint8Array(await hit.arrayBuffer())).toEqual(bytes);
    const notModified = await loopbackApi(originTransformUrl(caller, "w_40,f_webp", "shop", "/photo.png"), { headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    // A second transform of the same path reuses the kept original: one version, one row.
    const other = await loopbackApi(originTransformUrl(caller, "w_20", "shop", "/photo.png"));
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    expect((await objectRow(caller.accountId, "/photo.png"))!.version).toBe(row.version);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("reaches only the key's own account's origins", async () => {
    const owner = await seedCaller();
    await registerGeneratedOrigin(owner);
    const stranger = await seedCaller();
    const problem = await problemOf(await loopbackApi(originTransformUrl(stranger, "w_40", "shop", "/photo.png")));
    expect(problem.status).toBe(404);
    expect(await transformCharges(stranger.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("refuses a path that would leave the base URL, before fetching anything", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    // Dot segments, encoded or not, and backslashes never get this far: the URL parser resolves
    // them (within the URL) before any route sees it. What is left to refuse is an escape the
    // origin's server might decode into a separator or a dot segment.
    for (const path of ["/a%2Fb.png", "/%2e%2e%2fphoto.png", "/a%5Cphoto.png", "/x/%2E%2E%2F%2E%2E%2Fphoto.png", "/a%00.png"]) {
      const res = await loopbackApi(originTransformUrl(caller, "w_40", "shop", path));
      const problem = await problemOf(res);
      expect([path, problem.status, problem.type]).toEqual([path, 400, expect.stringMatching(/origin_path_invalid/)]);
    }
    expect(await fileShardRows(caller.accountId, "SELECT * FROM origin_objects")).toEqual([]);
  });

  it("does not forward the query string", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    // The generated-files server 404s any name it does not know, `photo.png?x=1` included.
    const res = await loopbackApi(`${originTransformUrl(caller, "w_24", "shop", "/photo.png")}?x=1`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it("answers an upstream 404 with a 404, remembered for a minute, uncharged", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const first = await problemOf(await loopbackApi(originTransformUrl(caller, "w_40", "shop", "/nothing-here.png")));
    expect(first.status).toBe(404);
    const row = (await objectRow(caller.accountId, "/nothing-here.png"))!;
    expect(row.status).toBe("missing");
    expect(row.fresh_until - Date.now()).toBeGreaterThan(50_000);
    expect(row.fresh_until - Date.now()).toBeLessThanOrEqual(60_000);
    expect((await problemOf(await loopbackApi(originTransformUrl(caller, "w_40", "shop", "/nothing-here.png")))).status).toBe(404);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("answers a dead origin with 502 and Retry-After, uncharged", async () => {
    const caller = await seedCaller();
    // Nothing listens on this loopback port, so the connection is refused.
    const registered = await loopbackApi("/v1/origins", { key: caller, json: { name: "down", base_url: "http://127.0.0.1:1024/" } });
    expect(registered.status).toBe(201);
    const res = await loopbackApi(originTransformUrl(caller, "w_40", "down", "/photo.png"));
    const problem = await problemOf(res);
    expect([problem.status, problem.type]).toEqual([502, expect.stringMatching(/upstream_unavailable/)]);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("refuses an origin that is not an image with 415, and keeps nothing of it", async () => {
    const caller = await seedCaller();
    const registered = await loopbackApi("/v1/origins", { key: caller, json: { name: "self", base_url: `${env.TEST_GENERATED_FILES_URL}/` } });
    expect(registered.status).toBe(201);
    const problem = await problemOf(await loopbackApi(originTransformUrl(caller, "w_40", "self", "/error-page.html")));
    expect(problem.status).toBe(415);
    expect(await objectRow(caller.accountId, "/error-page.html")).toBeNull();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("draws a PDF's page from an origin with pg_, and names pg_ when the URL has none", async () => {
    const caller = await seedCaller();
    const registered = await loopbackApi("/v1/origins", { key: caller, json: { name: "self", base_url: `${env.TEST_GENERATED_FILES_URL}/` } });
    expect(registered.status).toBe(201);
    const pageless = await problemOf(await loopbackApi(originTransformUrl(caller, "w_40", "self", "/photo-placed-small.pdf")));
    expect(pageless.status).toBe(415);
    expect(pageless.detail).toContain("pg_");
    const page = await loopbackApi(originTransformUrl(caller, "w_40,pg_1,f_png", "self", "/photo-placed-small.pdf"));
    expect(page.status).toBe(200);
    expect((await decodePixels("png", new Uint8Array(await page.arrayBuffer()))).width).toBe(40);
  });

  it("signs the origin and the path into the URL", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const issued = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
    const secret = (await issued.json<{ signing_secret: string }>()).signing_secret;
    const required = await api("/v1/account", { key: caller, method: "PATCH", json: { require_signed_transforms: true } });
    expect(required.status).toBe(200);
    const signature = await transformSignature(secret, canonicalPath(caller.keyId, "w_32", "shop/photo.png"));
    const signed = await loopbackApi(originTransformUrl(caller, `w_32,s_${signature}`, "shop", "/photo.png"));
    expect(signed.status).toBe(200);
    await signed.arrayBuffer();
    // The same signature on another path or origin is refused.
    expect((await problemOf(await loopbackApi(originTransformUrl(caller, `w_32,s_${signature}`, "shop", "/rgb.png")))).status).toBe(403);
    expect((await problemOf(await loopbackApi(originTransformUrl(caller, "w_32", "shop", "/photo.png")))).status).toBe(403);
  });
});
