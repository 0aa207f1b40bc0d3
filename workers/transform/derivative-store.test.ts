import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepExpiredFiles } from "../files/expiry-sweep.ts";
import { deleteFile, storeFile } from "../files/file-store.ts";
import { seedCaller } from "../test-support/api.ts";
import { countDerivatives, derivativeKey, dropIfFileDeleted, storeDerivative } from "./derivative-store.ts";
import { edgeCacheKey, matchEdgeCache, putEdgeCache } from "./edge-cache.ts";
import { findMezzanine, mezzanineKey, storeMezzanine } from "./mezzanine-store.ts";

async function fileWithDerivatives(expiresAt: number) {
  const caller = await seedCaller();
  const file = await storeFile(env, { accountId: caller.accountId, kind: "source", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "image/png", expiresAt });
  const ids = ["w_100", "w_200"].map((canonical) => ({ accountId: caller.accountId, fileId: file.id, canonical, formatClass: "" }));
  for (const id of ids) {
    await storeDerivative(env, id, { body: new Uint8Array([9, 9]), size: 2, contentType: "image/webp", etag: `"${id.canonical}"` });
    // Cached while the file was live, as a transform served before the file expired would have.
    await putEdgeCache(edgeCacheKey(id), new Uint8Array([9, 9]), { etag: `"${id.canonical}"`, contentType: "image/webp", bytes: 2, vary: [] }, Date.now() + 3_600_000);
  }
  const original = { width: 4000, height: 3000, format: "jpeg", hasAlpha: false };
  await storeMezzanine(env.FILES, file.id, new Uint8Array([7, 7]), { format: "jpeg", width: 1154, height: 865, original });
  const found = await findMezzanine(env.FILES, file.id);
  expect(found?.meta).toEqual({ format: "jpeg", width: 1154, height: 865, original });
  // The mezzanine is no derivative: not counted against the per-file cap.
  expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(2);
  return { caller, file, ids, keys: [...(await Promise.all(ids.map(derivativeKey))), mezzanineKey(file.id)] };
}

describe("derivatives follow their file", () => {
  it("stay in the edge cache no longer than their file lives", async () => {
    const id = { accountId: "acct_cache_lifetime", fileId: "file_cache_lifetime", canonical: "w_100", formatClass: "" };
    const meta = { etag: '"w_100"', contentType: "image/webp", bytes: 2, vary: [] };
    const now = Date.now();
    await putEdgeCache(edgeCacheKey(id), new Uint8Array([9, 9]), meta, now + 90_500, now);
    expect((await caches.default.match(edgeCacheKey(id)))?.headers.get("Cache-Control")).toBe("public, max-age=90");
    // A file already expired is not cached at all.
    await caches.default.delete(edgeCacheKey(id));
    await putEdgeCache(edgeCacheKey(id), new Uint8Array([9, 9]), meta, now - 1, now);
    expect(await matchEdgeCache(edgeCacheKey(id), [])).toBeNull();
  });

  it("are deleted, rows and R2 objects, mezzanine included, when the file is deleted", async () => {
    const { caller, file, keys } = await fileWithDerivatives(Date.now() + 3_600_000);
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(2);
    await deleteFile(env, caller.accountId, file.id);
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
  });

  it("are deleted when the expiry sweep removes the file, edge cache included", async () => {
    const { caller, file, ids, keys } = await fileWithDerivatives(Date.now() - 1_000);
    for (const id of ids) expect(await matchEdgeCache(edgeCacheKey(id), [])).not.toBeNull();
    await sweepExpiredFiles(env, Date.now());
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
    for (const id of ids) expect(await matchEdgeCache(edgeCacheKey(id), [])).toBeNull();
  });

  it("are deleted when they land after their file's deletion, edge cache included", async () => {
    const { caller, file, keys } = await fileWithDerivatives(Date.now() + 3_600_000);
    expect(await dropIfFileDeleted(env, caller.accountId, file.id)).toBe(false);
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(2);

    await deleteFile(env, caller.accountId, file.id);
    // A transform that was computing meanwhile stores its derivative and caches it afterwards.
    const late = { accountId: caller.accountId, fileId: file.id, canonical: "w_300", formatClass: "" };
    const cacheKey = edgeCacheKey(late);
    await storeDerivative(env, late, { body: new Uint8Array([5]), size: 1, contentType: "image/webp", etag: '"late"' });
    await putEdgeCache(cacheKey, new Uint8Array([5]), { etag: '"late"', contentType: "image/webp", bytes: 1, vary: [] }, file.expires_at);
    await storeMezzanine(env.FILES, file.id, new Uint8Array([7]), { format: "jpeg", width: 1, height: 1, original: { width: 1, height: 1, format: "jpeg", hasAlpha: false } });
    expect(await matchEdgeCache(cacheKey, [])).not.toBeNull();

    expect(await dropIfFileDeleted(env, caller.accountId, file.id)).toBe(true);
    expect(await countDerivatives(env.DB, caller.accountId, file.id)).toBe(0);
    for (const key of [...keys, await derivativeKey(late)]) expect(await env.FILES.head(key)).toBeNull();
    expect(await matchEdgeCache(cacheKey, [])).toBeNull();
  });
});
