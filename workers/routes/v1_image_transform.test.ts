import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels, type Pixels } from "../edge-image/codecs.ts";
import { readImageHeader } from "../edge-image/image-header.ts";
import { insertPendingFile } from "../files/file-store.ts";
import { revokeKey, createKey } from "../keys/key-store.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { freezeClockInsideMinute } from "../test-support/frozen-clock.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { CHROME_ACCEPT, seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { canonicalTransform, resolveTransform } from "../../contracts/transform/canonical.ts";
import { canonicalPath } from "../transform/check-signature.ts";
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";
import { derivativeCount } from "../test-support/derivative-count.ts";
import { derivativeKey } from "../derivatives/derivative-store.ts";
import { mezzanineKey } from "../derivatives/mezzanine-store.ts";
import { MEZZANINE_MAX_PIXELS } from "../../contracts/origin/image-mezzanine.ts";
import { imageTransformEndpoint, originTransformOptions } from "../../contracts/origin/image-transform.ts";
import { EDGE_MAX_SOURCE_BYTES, type EdgeSourceFormat } from "../../contracts/limits/edge-budget.ts";
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { padImage } from "../test-support/padded-image.ts";
import { originCompute } from "../origin/origin-client.ts";
import { deleteEdgeCache, edgeCacheKey } from "../derivatives/edge-cache.ts";
import { strongEtag } from "../derivatives/derivative-response.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { balanceOf } from "../test-support/account-books.ts";
import { fileShardRows, shardRows } from "../test-support/shard-rows.ts";
import { accountShard, fileShard } from "../shards/shard-stub.ts";

const LEGACY_ACCEPT = "image/png,image/*;q=0.8,*/*;q=0.5";

async function seedFile(caller: TestCaller, name: string, contentType: string): Promise<string> {
  return seedSource(caller, await generatedBytes(name), contentType);
}

describe("GET /v1/image/t/{key_id}/{transform}/{file_id}", () => {
  it("computes at the edge, then serves the edge cache for any spelling of the transform", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "photo.png", "image/png");
    const miss = await api(transformUrl(caller, "w_400,f_webp", fileId));
    expect(miss.status).toBe(200);
    const bytes = new Uint8Array(await miss.arrayBuffer());
    expect(miss.headers.get("X-Cache")).toBe("MISS");
    expect(miss.headers.get("X-Cache-Tier")).toBe("compute");
    expect(miss.headers.get("X-Transform-Engine")).toBe("edge");
    expect(miss.headers.get("Content-Type")).toBe("image/webp");
    expect(miss.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    expect(miss.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(miss.headers.get("ETag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(miss.headers.get("Vary")).toBeNull();
    const pixels = await decodePixels("webp", bytes);
    expect([pixels.width, pixels.height]).toEqual([400, 266]);

    const hit = await api(transformUrl(caller, "f_webp,w_400,q_76", fileId));
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    expect(hit.headers.get("X-Cache-Tier")).toBe("edge");
    expect(hit.headers.get("ETag")).toBe(miss.headers.get("ETag"));
    expect(hit.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    expect(new Uint8Array(await hit.arrayBuffer())).toEqual(bytes);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("answers If-None-Match with 304 on every tier", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgba.png", "image/png");
    const first = await api(transformUrl(caller, "w_16", fileId));
    const etag = first.headers.get("ETag")!;
    await first.arrayBuffer();
    const cached = await api(transformUrl(caller, "w_16", fileId), { headers: { "If-None-Match": `"other", ${etag}` } });
    expect(cached.status).toBe(304);
    expect(cached.headers.get("ETag")).toBe(etag);
    expect(await cached.text()).toBe("");
    const stale = await api(transformUrl(caller, "w_16", fileId), { headers: { "If-None-Match": '"other"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    // A new derivative answers 304 straight from compute when the client already has its bytes.
    const computed = await api(transformUrl(caller, "w_16,q_50", fileId), { headers: { "If-None-Match": "*" } });
    expect([computed.status, computed.headers.get("X-Cache-Tier")]).toEqual([304, "compute"]);
  });

  it("negotiates f_auto from Accept, varies on the class and bills each class once", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgba.png", "image/png");
    const avif = await api(transformUrl(caller, "w_24,f_auto", fileId), { headers: { Accept: CHROME_ACCEPT } });
    expect(avif.headers.get("Content-Type")).toBe("image/avif");
    expect(avif.headers.get("Vary")).toBe("Accept");
    await avif.arrayBuffer();
    const legacy = await api(transformUrl(caller, "w_24,f_auto", fileId), { headers: { Accept: LEGACY_ACCEPT } });
    // The source has alpha, so the legacy class is PNG.
    expect(legacy.headers.get("Content-Type")).toBe("image/png");
    expect(legacy.headers.get("X-Cache")).toBe("MISS");
    expect(readImageHeader(new Uint8Array(await legacy.arrayBuffer()))).toMatchObject({ format: "png", width: 24, hasAlpha: true });
    const otherChrome = await api(transformUrl(caller, "f_auto,w_24", fileId), { headers: { Accept: "image/avif,image/webp,*/*" } });
    expect([otherChrome.headers.get("X-Cache"), otherChrome.headers.get("Content-Type"), otherChrome.headers.get("Vary")]).toEqual(["HIT", "image/avif", "Accept"]);
    await otherChrome.arrayBuffer();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("bills a derivative once, even after the edge cache and R2 lose it", async () => {
    const caller = await seedCaller({ balanceMicros: 5_000 });
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const transform = "w_20,f_jpeg";
    const identity = { accountId: caller.accountId, fileId, canonical: canonicalTransform(parseTransform(transform)), formatClass: null };
    const cacheKey = edgeCacheKey(env, identity);
    const tiers: string[] = [];
    const get = async () => {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status).toBe(200);
      tiers.push(res.headers.get("X-Cache-Tier")!);
      return res.headers.get("ETag");
    };
    const etag = await get();
    await get();
    expect(await deleteEdgeCache(cacheKey)).toBe(true);
    await get();
    await deleteEdgeCache(cacheKey);
    const [row] = await shardRows<{ r2_key: string }>(caller.accountId, "SELECT r2_key FROM derivatives WHERE file_id = ?", fileId);
    await env.FILES.delete(row!.r2_key);
    expect(await get()).toBe(etag);
    expect(tiers).toEqual(["compute", "edge", "r2", "compute"]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
    expect(await balanceOf(caller.accountId)).toBe(4_200);
  });

  it("passes an origin-made derivative through R2 and the cache unchanged, its ETag the digest of its bytes", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "landscape-1.jpg", "image/jpeg");
    // Larger than the source and lossless: the origin's biggest kind of output.
    const transform = "w_1800,f_png";
    const identity = { accountId: caller.accountId, fileId, canonical: canonicalTransform(parseTransform(transform)), formatClass: null };
    const served: { tier: string | null; bytes: Uint8Array; etag: string | null; length: string | null }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status).toBe(200);
      served.push({ tier: res.headers.get("X-Cache-Tier"), bytes: new Uint8Array(await res.arrayBuffer()), etag: res.headers.get("ETag"), length: res.headers.get("Content-Length") });
      if (i === 1) await deleteEdgeCache(edgeCacheKey(env, identity));
    }
    expect(served.map((s) => s.tier)).toEqual(["compute", "edge", "r2"]);
    const [first] = served;
    expect(readImageHeader(first!.bytes)).toMatchObject({ format: "png", width: 1800, height: 1200 });
    expect(first!.etag).toBe(strongEtag(await sha256Hex(first!.bytes)));
    for (const later of served) expect([later.bytes, later.etag, later.length]).toEqual([first!.bytes, first!.etag, String(first!.bytes.byteLength)]);
  });

  it("stops serving a deleted file's derivatives from this data centre's cache", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    for (const transform of ["w_20,f_webp", "w_10"]) {
      await (await api(transformUrl(caller, transform, fileId))).arrayBuffer();
      const hit = await api(transformUrl(caller, transform, fileId));
      expect(hit.headers.get("X-Cache-Tier")).toBe("edge");
      await hit.arrayBuffer();
    }
    const ack = await api(`/v1/files/${fileId}/ack`, { key: caller, method: "POST" });
    expect(ack.status).toBe(200);
    await ack.arrayBuffer();
    for (const transform of ["w_20,f_webp", "w_10"]) {
      const after = await api(transformUrl(caller, transform, fileId));
      expect(after.status).toBe(410);
      await after.arrayBuffer();
    }
  });

  it("keeps one cache entry whatever hostname serves it, so deleting the file stops every hostname", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const aliasHost = "img.alias.test";
    const underHost = (host: string) =>
      host === aliasHost
        ? fetchWithEnv({ IMAGE_ALIAS_HOSTS: aliasHost }, new Request(`http://${aliasHost}${transformUrl(caller, "w_12,f_webp", fileId)}`))
        : api(transformUrl(caller, "w_12,f_webp", fileId), { host });
    const hosts = ["localhost:8787", "127.0.0.1:8787", aliasHost];
    const tiers: (string | null)[] = [];
    for (const host of hosts) {
      const res = await underHost(host);
      expect(res.status).toBe(200);
      expect((await decodePixels("webp", new Uint8Array(await res.arrayBuffer()))).width).toBe(12);
      tiers.push(res.headers.get("X-Cache-Tier"));
    }
    expect(tiers).toEqual(["compute", "edge", "edge"]);

    const ack = await api(`/v1/files/${fileId}/ack`, { key: caller, method: "POST" });
    expect(ack.status).toBe(200);
    await ack.arrayBuffer();
    for (const host of hosts) {
      const after = await underHost(host);
      expect([host, after.status, after.headers.get("X-Cache")]).toEqual([host, 410, null]);
      await after.arrayBuffer();
    }
  });

  it("keeps a derivative in the edge cache no longer than its file lives", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const [{ expires_at }] = (await fileShardRows<{ expires_at: number }>(caller.accountId, "SELECT expires_at FROM files WHERE id = ?", fileId)) as [{ expires_at: number }];
    const before = Date.now();
    const res = await api(transformUrl(caller, "w_14", fileId));
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    await res.arrayBuffer();
    const identity = { accountId: caller.accountId, fileId, canonical: canonicalTransform(parseTransform("w_14")), formatClass: null };
    const stored = (await caches.default.match(edgeCacheKey(env, identity)))!.headers.get("Cache-Control");
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(stored ?? "")?.[1]);
    expect(maxAge).toBeLessThanOrEqual(Math.floor((expires_at - before) / 1000));
    expect(maxAge).toBeGreaterThan(Math.floor((expires_at - before) / 1000) - 60);
  });

  it("remembers its source's row a moment: a change made here is seen at once, and a deletion made elsewhere costs the work, not a charge", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const cachedFor = async (transform: string) => {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const identity = { accountId: caller.accountId, fileId, canonical: canonicalTransform(parseTransform(transform)), formatClass: null };
      return Number(/max-age=(\d+)/.exec((await caches.default.match(edgeCacheKey(env, identity)))!.headers.get("Cache-Control") ?? "")?.[1]);
    };
    const expiring = await cachedFor("w_14");
    expect(expiring).toBeLessThan(2 * 86_400);
    expect((await api(`/v1/files/${fileId}`, { key: caller, method: "PATCH", json: { expires_at: null } })).status).toBe(200);
    // Made durable here: the next miss caches for as long as a durable file's derivatives are kept.
    expect(await cachedFor("w_15")).toBeGreaterThan(300 * 86_400);

    // Deleted by another isolate, as its shards see it: this one still remembers the file as ready.
    const charged = await transformCharges(caller.accountId);
    await fileShard(env, caller.accountId).markFileDeleted({ accountId: caller.accountId, index: 0 }, fileId, "deleted", Date.now());
    await accountShard(env, caller.accountId).dropDerivativesMadeWith(caller.accountId, [fileId], true, Date.now());
    const late = await problemOf(await api(transformUrl(caller, "w_16", fileId)));
    expect([late.status, late.detail]).toEqual([410, expect.stringMatching(/deleted while it was made/)]);
    expect(await transformCharges(caller.accountId)).toEqual(charged);
    const identity = { accountId: caller.accountId, fileId, canonical: canonicalTransform(parseTransform("w_16")), formatClass: null };
    expect(await env.FILES.head(await derivativeKey(identity))).toBeNull();
    // The file shard said so after the refusal: the next request is refused before any work.
    const next = await problemOf(await api(transformUrl(caller, "w_17", fileId)));
    expect([next.status, next.detail]).toEqual([410, expect.stringMatching(/^File file_\w+ was deleted at /)]);
  });

  it("sends what the edge cannot do, or cannot afford, to the origin", async () => {
    const caller = await seedCaller();
    const large = await seedFile(caller, "landscape-1.jpg", "image/jpeg");
    const big = await api(transformUrl(caller, "w_1500,f_webp", large));
    expect([big.status, big.headers.get("X-Transform-Engine"), big.headers.get("X-Transform-Source")]).toEqual([200, "origin", "original"]);
    expect(readImageHeader(new Uint8Array(await big.arrayBuffer()))).toMatchObject({ format: "webp", width: 1500, height: 1000 });
    const rotated = await seedFile(caller, "portrait-6.jpg", "image/jpeg");
    const turned = await api(transformUrl(caller, "w_200,r_90", rotated));
    expect([turned.headers.get("X-Transform-Engine"), turned.headers.get("Content-Type")]).toEqual(["origin", "image/jpeg"]);
    expect(readImageHeader(new Uint8Array(await turned.arrayBuffer()))).toMatchObject({ width: 200, height: 133 });
  });

  it("never holds an original over the edge's byte budget: the origin gets it streamed", async () => {
    const caller = await seedCaller();
    const photoPng = await generatedBytes("photo.png");
    // Under the pixel budget either way: only the bytes decide whether the edge decodes the original.
    const atBudget = await seedSource(caller, padImage(photoPng, EDGE_MAX_SOURCE_BYTES), "image/png");
    const overBudget = await seedSource(caller, padImage(photoPng, EDGE_MAX_SOURCE_BYTES + 2), "image/png");
    for (const [fileId, transform, engine, source] of [
      [atBudget, "w_400,f_webp", "edge", "original"],
      // What the edge could do from the original it does from a mezzanine, made from the stream.
      [overBudget, "w_400,f_webp", "edge", "mezzanine"],
      // What it cannot do, the origin does from the stream.
      [overBudget, "w_400,bl_1,f_webp", "origin", "original"],
    ] as const) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect([res.status, res.headers.get("X-Transform-Engine"), res.headers.get("X-Transform-Source")]).toEqual([200, engine, source]);
      // The edge's and the origin's resamplers and encoders differ by a few levels alone.
      const derived = await decodePixels("webp", new Uint8Array(await res.arrayBuffer()));
      expect(meanAbsoluteDifference(derived, await fromOriginal(photoPng, transform, "webp"))).toBeLessThan(5);
    }
  });

  it("refuses an original over the image byte limit with 413 and an unfinished upload with 409, unbilled", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "photo.png", "image/png");
    // The size the row records is what the limit reads; storing 64 MB to prove it would only be slow.
    await fileShardRows(caller.accountId, "UPDATE files SET size_bytes = ? WHERE id = ?", IMAGE_SOURCE_MAX_BYTES + 1, fileId);
    const tooLarge = await api(transformUrl(caller, "w_100", fileId));
    expect([tooLarge.status, (await problemOf(tooLarge)).type]).toEqual([413, "https://pixelpress.dev/problems/image_too_large"]);
    const pending = await insertPendingFile(env, { accountId: caller.accountId, kind: "source", contentType: "image/png", sizeBytes: 10, expiresAt: Date.now() + 3_600_000 });
    const unfinished = await api(transformUrl(caller, "w_100", pending.id));
    expect([unfinished.status, (await problemOf(unfinished)).type]).toEqual([409, "https://pixelpress.dev/problems/upload_incomplete"]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("answers 404 alike for unknown keys, revoked keys and other accounts' files", async () => {
    const owner = await seedCaller();
    const fileId = await seedFile(owner, "rgb.png", "image/png");
    const stranger = await seedCaller();
    const spare = await createKey(env.DB, owner.accountId, { name: "spare" });
    expect(await revokeKey(env.DB, owner.accountId, spare.record.id)).toBe("revoked");
    const paths = [
      `/v1/image/t/key_doesnotexist/w_10/${fileId}`,
      `/v1/image/t/${spare.record.id}/w_10/${fileId}`,
      transformUrl(stranger, "w_10", fileId),
      transformUrl(owner, "w_10", "file_doesnotexist"),
    ];
    for (const path of paths) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect((await problemOf(res)).type).toBe("https://pixelpress.dev/problems/not_found");
    }
    expect(await transformCharges(stranger.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("refuses bad transforms with 400, never caching or billing them", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    for (const transform of ["w_0", "w_10,w_10", "zz_1", "w_8000,h_8000"]) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect(res.status).toBe(400);
      expect((await problemOf(res)).type).toBe("https://pixelpress.dev/problems/transform_invalid");
      expect(res.headers.get("Cache-Control") ?? "").not.toContain("immutable");
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("verifies signatures, and requires them when the account says so", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const issued = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
    expect(issued.status).toBe(200);
    const secret = (await issued.json<{ signing_secret: string }>()).signing_secret;
    const signature = await transformSignature(secret, canonicalPath(caller.keyId, canonicalTransform(parseTransform("w_12,f_png")), fileId));
    const signed = await api(transformUrl(caller, `f_png,w_12,s_${signature}`, fileId));
    expect(signed.status).toBe(200);
    await signed.arrayBuffer();
    const forged = await api(transformUrl(caller, `w_13,f_png,s_${signature}`, fileId));
    expect(forged.status).toBe(403);
    expect((await problemOf(forged)).type).toBe("https://pixelpress.dev/problems/transform_signature_invalid");

    const required = await api("/v1/account", { key: caller, method: "PATCH", json: { require_signed_transforms: true } });
    expect(await required.json()).toEqual({ require_signed_transforms: true });
    // The key lookup is remembered per isolate; issuing a secret again refreshes it.
    const rotation = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
    const rotated = (await rotation.json<{ signing_secret: string }>()).signing_secret;
    const unsigned = await api(transformUrl(caller, "w_12,f_png", fileId));
    expect(unsigned.status).toBe(403);
    await unsigned.arrayBuffer();
    const old = await api(transformUrl(caller, `w_12,f_png,s_${signature}`, fileId));
    expect(old.status).toBe(403);
    await old.arrayBuffer();
    const fresh = await transformSignature(rotated, canonicalPath(caller.keyId, canonicalTransform(parseTransform("w_12,f_png")), fileId));
    const ok = await api(transformUrl(caller, `w_12,f_png,s_${fresh}`, fileId));
    expect([ok.status, ok.headers.get("X-Cache")]).toEqual([200, "HIT"]);
    await ok.arrayBuffer();
  });

  it("applies a change to require_signed_transforms at once in the isolate that took it", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const before = await api(transformUrl(caller, "w_10,f_png", fileId));
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    expect((await api("/v1/account", { key: caller, method: "PATCH", json: { require_signed_transforms: true } })).status).toBe(200);
    const refused = await api(transformUrl(caller, "w_10,f_png", fileId));
    expect(refused.status).toBe(403);
    await refused.arrayBuffer();
    expect((await api("/v1/account", { key: caller, method: "PATCH", json: { require_signed_transforms: false } })).status).toBe(200);
    const again = await api(transformUrl(caller, "w_10,f_png", fileId));
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });

  it("caps distinct derivatives per file and refuses without billing", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const insert = env.DB.prepare(
      "INSERT INTO derivatives (account_id, file_id, canonical, format_class, r2_key, etag, bytes, content_type, created_at) VALUES (?, ?, ?, '', 'x', '\"x\"', 1, 'image/png', 0)",
    );
    await env.DB.batch(Array.from({ length: MAX_DERIVATIVES_PER_FILE }, (_, i) => insert.bind(caller.accountId, fileId, `w_${i + 100}`)));
    const res = await api(transformUrl(caller, "w_9", fileId));
    expect(res.status).toBe(422);
    expect(await problemOf(res)).toMatchObject({ type: "https://pixelpress.dev/problems/derivative_limit", limit: MAX_DERIVATIVES_PER_FILE });
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
    // Refused after the work (the shard keeps the count): the object made for it is not left behind.
    expect(await env.FILES.head(await derivativeKey({ accountId: caller.accountId, fileId, canonical: "w_9", formatClass: null }))).toBeNull();
    // This isolate asks first the next time, and refuses again.
    expect((await api(transformUrl(caller, "w_8", fileId))).status).toBe(422);
  });

  it("refuses an unfunded account with 402 and stores nothing", async () => {
    const caller = await seedCaller({ balanceMicros: 0 });
    const fileId = await seedFile(caller, "rgb.png", "image/png");
    const res = await api(transformUrl(caller, "w_10", fileId));
    expect(res.status).toBe(402);
    await res.arrayBuffer();
    expect(await derivativeCount(env, caller.accountId, fileId)).toBe(0);
  });

  it("applies the key's rate limit past the edge cache", async () => {
    freezeClockInsideMinute();
    const caller = await seedCaller();
    const request = () => new Request(`http://api.test${transformUrl(caller, "w_10", "file_missing")}`);
    const first = await fetchWithEnv({ RATE_LIMIT_PER_MINUTE: "1" }, request());
    expect(first.status).toBe(404);
    const second = await fetchWithEnv({ RATE_LIMIT_PER_MINUTE: "1" }, request());
    expect(second.status).toBe(429);
    expect(second.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

// The same transform made by the origin from the original, decoded: the reference a mezzanine
// derivative must look like.
async function fromOriginal(original: Uint8Array, transform: string, format: EdgeSourceFormat): Promise<Pixels> {
  const frame = await originCompute(env, imageTransformEndpoint, { body: original, options: originTransformOptions(resolveTransform(parseTransform(transform)), format) });
  return decodePixels(format, new Uint8Array(await new Response(frame.payload).arrayBuffer()));
}

// Mean absolute difference over the colour channels, 0..255.
function meanAbsoluteDifference(a: Pixels, b: Pixels): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / ((a.data.length / 4) * 3);
}

describe("large and EXIF-rotated originals through the mezzanine", () => {
  it("makes the mezzanine once and serves small outputs from it at the edge, looking like the original's", async () => {
    const caller = await seedCaller();
    const original = await generatedBytes("landscape-1.jpg");
    const fileId = await seedFile(caller, "landscape-1.jpg", "image/jpeg");
    let uploaded: number | undefined;
    for (const [transform, format] of [
      ["w_300,f_webp", "webp"],
      ["w_400,h_400,fit_cover,g_east,f_png", "png"],
      ["w_500,h_200,fit_fill,f_jpg", "jpeg"],
    ] as const) {
      const res = await api(transformUrl(caller, transform, fileId));
      expect([res.status, res.headers.get("X-Transform-Engine"), res.headers.get("X-Transform-Source")]).toEqual([200, "edge", "mezzanine"]);
      const derived = await decodePixels(format, new Uint8Array(await res.arrayBuffer()));
      const difference = meanAbsoluteDifference(derived, await fromOriginal(original, transform, format));
      console.log(`${transform}: mezzanine vs original mean absolute difference ${difference.toFixed(2)}`);
      // Two resamplers and two q76 encodings of the same picture differ by a few levels alone.
      expect(difference).toBeLessThan(5);
      // One mezzanine, made by the first miss and reused (not rewritten) by the others.
      const stored = await env.FILES.head(mezzanineKey(fileId));
      uploaded ??= stored!.uploaded.getTime();
      expect(stored!.uploaded.getTime()).toBe(uploaded);
    }
    // Not a derivative: three rows, three charges.
    expect(await derivativeCount(env, caller.accountId, fileId)).toBe(3);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 3, micros: 2400 });
    const mezzanine = await env.FILES.get(mezzanineKey(fileId));
    const header = readImageHeader(new Uint8Array(await mezzanine!.arrayBuffer()))!;
    expect(header.width * header.height).toBeLessThanOrEqual(MEZZANINE_MAX_PIXELS);

    // Deleting the file deletes its mezzanine.
    const ack = await api(`/v1/files/${fileId}/ack`, { key: caller, method: "POST" });
    expect(ack.status).toBe(200);
    await ack.arrayBuffer();
    expect(await env.FILES.head(mezzanineKey(fileId))).toBeNull();
  });

  it("makes the mezzanine of an original over the edge's byte budget from a stream", async () => {
    const caller = await seedCaller();
    const original = await generatedBytes("landscape-1.jpg");
    const fileId = await seedSource(caller, padImage(original, EDGE_MAX_SOURCE_BYTES + 1_000_000), "image/jpeg");
    const res = await api(transformUrl(caller, "w_300,f_webp", fileId));
    expect([res.status, res.headers.get("X-Transform-Engine"), res.headers.get("X-Transform-Source")]).toEqual([200, "edge", "mezzanine"]);
    const derived = await decodePixels("webp", new Uint8Array(await res.arrayBuffer()));
    expect(meanAbsoluteDifference(derived, await fromOriginal(original, "w_300,f_webp", "webp"))).toBeLessThan(5);
  });

  it("turns an EXIF-rotated original upright in the mezzanine", async () => {
    const caller = await seedCaller();
    const original = await generatedBytes("portrait-6.jpg");
    const fileId = await seedFile(caller, "portrait-6.jpg", "image/jpeg");
    const res = await api(transformUrl(caller, "w_200,f_webp", fileId));
    expect([res.headers.get("X-Transform-Engine"), res.headers.get("X-Transform-Source")]).toEqual(["edge", "mezzanine"]);
    const derived = await decodePixels("webp", new Uint8Array(await res.arrayBuffer()));
    expect(meanAbsoluteDifference(derived, await fromOriginal(original, "w_200,f_webp", "webp"))).toBeLessThan(5);
  });

  it("leaves operations the edge lacks to the origin, working from the original", async () => {
    const caller = await seedCaller();
    const fileId = await seedFile(caller, "landscape-1.jpg", "image/jpeg");
    const blurred = await api(transformUrl(caller, "w_300,bl_2", fileId));
    expect([blurred.status, blurred.headers.get("X-Transform-Engine"), blurred.headers.get("X-Transform-Source")]).toEqual([200, "origin", "original"]);
    await blurred.arrayBuffer();
    expect(await env.FILES.head(mezzanineKey(fileId))).toBeNull();
  });
});
