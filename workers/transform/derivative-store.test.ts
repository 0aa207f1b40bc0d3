import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { edgeCacheKey, matchEdgeCache, putEdgeCache } from "./edge-cache.ts";

describe("derivatives in the edge cache", () => {
  it("stay in the edge cache no longer than their file lives", async () => {
    const id = { accountId: "acct_cache_lifetime", fileId: "file_cache_lifetime", canonical: "w_100", formatClass: "" };
    const meta = { etag: '"w_100"', contentType: "image/webp", bytes: 2, vary: [] };
    const now = Date.now();
    await putEdgeCache(edgeCacheKey(env, id), new Uint8Array([9, 9]), meta, now + 90_500, now);
    expect((await caches.default.match(edgeCacheKey(env, id)))?.headers.get("Cache-Control")).toBe("public, max-age=90");
    // A file already expired is not cached at all.
    await caches.default.delete(edgeCacheKey(env, id));
    await putEdgeCache(edgeCacheKey(env, id), new Uint8Array([9, 9]), meta, now - 1, now);
    expect(await matchEdgeCache(edgeCacheKey(env, id), [])).toBeNull();
  });

  it("stay a year when their file is durable (no expiry): deletion purges them", async () => {
    const id = { accountId: "acct_cache_durable", fileId: "file_cache_durable", canonical: "w_100", formatClass: "" };
    await putEdgeCache(edgeCacheKey(env, id), new Uint8Array([9, 9]), { etag: '"w_100"', contentType: "image/webp", bytes: 2, vary: [] }, null);
    expect((await caches.default.match(edgeCacheKey(env, id)))?.headers.get("Cache-Control")).toBe("public, max-age=31536000");
  });
});
