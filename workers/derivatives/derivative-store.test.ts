import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedCaller } from "../test-support/api.ts";
import { transformChargeKey } from "../billing/charge-key.ts";
import { currentBalance } from "../billing/charge-once.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { deleteDerivativesOf, derivativeKey, derivativesOfFiles, readStoredDerivative, storeDerivative } from "./derivative-store.ts";
import { cacheKeyUrl, edgeCacheKey, matchEdgeCache, putEdgeCache } from "./edge-cache.ts";

describe("a derivative stored in the shared database before the format class was a union", () => {
  // Rows, objects and keys exactly as the code wrote them while the class was a string with ""
  // for none, and the index lived in the shared database: the digests are sha256("w_100\n") and
  // sha256("w_100\navif"), cut to 32 digits. The account's shard brings them over when first asked.
  it("is still found, keyed and charged under the spelling it was stored with", async () => {
    const { accountId } = await seedCaller();
    const fileId = "file_before_union";
    const stored = [
      { formatClass: "", r2Key: `accounts/${accountId}/derivatives/${fileId}/4ff1a0457dfc98346309853a82ac5667` },
      { formatClass: "avif", r2Key: `accounts/${accountId}/derivatives/${fileId}/79a47a1eaf83b20f7d0c88dbf3a235a7` },
    ];
    for (const { formatClass, r2Key } of stored) {
      await env.DB.prepare(
        "INSERT INTO derivatives (account_id, file_id, canonical, format_class, r2_key, etag, bytes, content_type, created_at) VALUES (?, ?, 'w_100', ?, ?, ?, 3, 'image/webp', 1)",
      )
        .bind(accountId, fileId, formatClass, r2Key, `"${formatClass}"`)
        .run();
      await env.FILES.put(r2Key, new Uint8Array([1, 2, 3]));
    }
    const none = { accountId, fileId, canonical: "w_100", formatClass: null };
    const avif = { accountId, fileId, canonical: "w_100", formatClass: "avif" as const };

    expect(await derivativeKey(none)).toBe(stored[0]!.r2Key);
    expect(await derivativeKey(avif)).toBe(stored[1]!.r2Key);
    expect((await readStoredDerivative(env, none))?.record.r2_key).toBe(stored[0]!.r2Key);
    expect((await readStoredDerivative(env, avif))?.record.r2_key).toBe(stored[1]!.r2Key);
    expect(await env.FILES.head(stored[0]!.r2Key)).not.toBeNull();
    expect(transformChargeKey(none)).toBe(`transform:${fileId}:w_100`);
    expect(transformChargeKey(avif)).toBe(`transform:${fileId}:w_100@avif`);
    const address = { accountId, source: fileId, canonical: "w_100" };
    expect(cacheKeyUrl(env, { ...address, formatClass: null })).toBe(`http://api.test/v1/image/t/~cache/${accountId}/${fileId}/w_100`);
    expect(cacheKeyUrl(env, { ...address, formatClass: "avif" })).toBe(`http://api.test/v1/image/t/~cache/${accountId}/${fileId}/w_100?fc=avif`);
    expect((await derivativesOfFiles(env, accountId, [fileId])).map((d) => d.formatClass).sort()).toEqual(["avif", null]);

    // Storing the same identity again lands on the old row, not beside it.
    const body = new Uint8Array([4, 5, 6]);
    await storeDerivative(env, none, { body, size: 3, contentType: "image/webp", etag: '"again"' });
    expect((await readStoredDerivative(env, none))?.record.etag).toBe('"again"');
    expect((await readStoredDerivative(env, avif))?.record.etag).toBe('"avif"');
    expect(await derivativesOfFiles(env, accountId, [fileId])).toHaveLength(2);
  });
});

describe("a derivative's object in R2", () => {
  it("is served only once the account's shard keeps its row: an object left by a keep that did not finish is made again", async () => {
    const { accountId } = await seedCaller();
    const id = { accountId, fileId: "file_orphan_object", canonical: "w_10", formatClass: null };
    await env.FILES.put(await derivativeKey(id), new Uint8Array([1]));
    expect(await readStoredDerivative(env, id)).toBeNull();
    await storeDerivative(env, id, { body: new Uint8Array([2, 3]), size: 2, contentType: "image/webp", etag: '"kept"' });
    const stored = await readStoredDerivative(env, id);
    expect(stored?.record.etag).toBe('"kept"');
    expect(new Uint8Array(await stored!.object.arrayBuffer())).toEqual(new Uint8Array([2, 3]));
  });
});

describe("derivatives over an account's several shards", () => {
  it("are kept and charged in the shard their file's id names, found there, and dropped from there", async () => {
    const branched = { ...env, FILE_SHARDS_PER_ACCOUNT: "4" };
    const { accountId } = await seedCaller({ balanceMicros: 10_000 });
    // A file of the account's file shard 2: `file_`, the shard's base62 digit, 20 random characters.
    const fileId = `file_2${"a".repeat(20)}`;
    const id = { accountId, fileId, canonical: "w_10", formatClass: null };
    const charge = { accountId, chargeKey: transformChargeKey(id), operation: "image.transform" as const, amountMicros: 500 };
    await storeDerivative(branched, id, { body: new Uint8Array([7]), size: 1, contentType: "image/webp", etag: '"b2"' }, charge);
    const name = { fileId, canonical: "w_10", formatClass: "" as const };
    expect((await accountShard(env, accountId, 2).storedDerivative(accountId, name)).row?.etag).toBe('"b2"');
    expect((await accountShard(env, accountId).storedDerivative(accountId, name)).row).toBeNull();
    expect((await accountShard(env, accountId, 2).ledger(accountId)).filter((row) => row.operation === "image.transform")).toMatchObject([{ chargeKey: charge.chargeKey }]);
    expect(await currentBalance(branched, accountId)).toBe(9_500);
    expect((await readStoredDerivative(branched, id))?.record.etag).toBe('"b2"');
    expect(await derivativesOfFiles(branched, accountId, [fileId])).toHaveLength(1);
    expect(await deleteDerivativesOf(branched, accountId, [fileId], true)).toHaveLength(1);
    expect((await accountShard(env, accountId, 2).storedDerivative(accountId, name)).row).toBeNull();
    expect(await env.FILES.head(await derivativeKey(id))).toBeNull();
  });
});

describe("derivatives in the edge cache", () => {
  it("stay in the edge cache no longer than their file lives", async () => {
    const id = { accountId: "acct_cache_lifetime", fileId: "file_cache_lifetime", canonical: "w_100", formatClass: null };
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
    const id = { accountId: "acct_cache_durable", fileId: "file_cache_durable", canonical: "w_100", formatClass: null };
    await putEdgeCache(edgeCacheKey(env, id), new Uint8Array([9, 9]), { etag: '"w_100"', contentType: "image/webp", bytes: 2, vary: [] }, null);
    expect((await caches.default.match(edgeCacheKey(env, id)))?.headers.get("Cache-Control")).toBe("public, max-age=31536000");
  });
});
