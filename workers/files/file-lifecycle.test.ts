import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { seedCaller } from "../test-support/api.ts";
import { ledgerOf } from "../test-support/account-books.ts";
import { fileReportFed, fileStatus } from "../test-support/file-report.ts";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { derivativeKey, storeDerivative } from "../derivatives/derivative-store.ts";
import { derivativeCount } from "../test-support/derivative-count.ts";
import { edgeCacheKey, fileCacheKeyUrl, matchEdgeCache, putEdgeCache } from "../derivatives/edge-cache.ts";
import type { RecordedPurge } from "../test-support/cloudflare-api-standin.ts";
import { findMezzanine, mezzanineKey, storeMezzanine } from "../derivatives/mezzanine-store.ts";
import { deleteFile, dropIfFileDeleted, releaseSource, sweepExpiredFiles } from "./file-lifecycle.ts";
import { findFile, insertPendingFile, storeFile } from "./file-store.ts";


function store(accountId: string, expiresAt: number | null) {
  const body = new TextEncoder().encode(`bytes expiring at ${expiresAt}`);
  return storeFile(env, { accountId, kind: "result", body, size: body.length, contentType: "text/plain", expiresAt });
}

describe("sweepExpiredFiles", () => {
  it("deletes expired objects and marks their rows deleted, leaving live files alone", async () => {
    const { accountId } = await seedCaller();
    const now = Date.UTC(2030, 0, 1);
    const expired = await store(accountId, now - 1);
    const dueNow = await store(accountId, now);
    const live = await store(accountId, now + 1);
    const durable = await store(accountId, null);
    // An upload that was never completed: its object exists but its row is still pending.
    const abandoned = await insertPendingFile(env, { accountId, kind: "source", contentType: "image/png", sizeBytes: 3, expiresAt: now - 10 });
    await env.FILES.put(abandoned.r2_key, new Uint8Array([1, 2, 3]));

    // Expired but not yet swept already answers 410.
    const before = await findFile(env, accountId, expired.id, now).catch((e: ProblemError) => e);
    expect(before).toMatchObject({ status: 410, slug: "gone" });

    // The sweep finds expired files in the shared report, which each file shard feeds.
    await sweepExpiredFiles(env, now, 100);
    expect(await fileStatus(accountId, expired.id)).toBe("ready");
    await fileReportFed(accountId);
    expect(await sweepExpiredFiles(env, now, 100)).toBeGreaterThanOrEqual(3);
    for (const file of [expired, dueNow, abandoned]) {
      expect(await fileStatus(accountId, file.id)).toBe("deleted");
      expect(await env.FILES.head(file.r2_key)).toBeNull();
      const after = await findFile(env, accountId, file.id, now).catch((e: ProblemError) => e);
      expect(after).toMatchObject({ status: 410, slug: "gone" });
    }
    for (const kept of [live, durable]) {
      expect(await fileStatus(accountId, kept.id)).toBe("ready");
      expect(await env.FILES.head(kept.r2_key)).not.toBeNull();
    }
    expect(await sweepExpiredFiles(env, now, 100)).toBe(0);
  });

  it("works through more files than one D1 statement can bind, `limit` at a time", async () => {
    const { accountId } = await seedCaller();
    const now = Date.UTC(2029, 0, 1);
    await Promise.all(Array.from({ length: 130 }, (_, i) => store(accountId, now - 1000 + i)));
    await fileReportFed(accountId);

    expect(await sweepExpiredFiles(env, now, 120)).toBe(120);
    expect(await sweepExpiredFiles(env, now, 120)).toBe(10);
    expect(await sweepExpiredFiles(env, now, 120)).toBe(0);

    const { results } = await env.DB.prepare("SELECT status, COUNT(*) AS n FROM files WHERE account_id = ? GROUP BY status")
      .bind(accountId)
      .all<{ status: string; n: number }>();
    expect(results).toEqual([{ status: "deleted", n: 130 }]);
    expect(await fileShardRows(accountId, "SELECT status, COUNT(*) AS n FROM files GROUP BY status")).toEqual([{ status: "deleted", n: 130 }]);
    const listed = await env.FILES.list({ prefix: `accounts/${accountId}/` });
    expect(listed.objects).toEqual([]);
  });
});

async function fileWithDerivatives(expiresAt: number) {
  const caller = await seedCaller();
  const file = await storeFile(env, { accountId: caller.accountId, kind: "source", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "image/png", expiresAt });
  const ids = ["w_100", "w_200"].map((canonical) => ({ accountId: caller.accountId, fileId: file.id, canonical, formatClass: null }));
  for (const id of ids) {
    await storeDerivative(env, id, { body: new Uint8Array([9, 9]), size: 2, contentType: "image/webp", etag: `"${id.canonical}"` });
    // Cached while the file was live, as a transform served before the file expired would have.
    await putEdgeCache(edgeCacheKey(env, id), new Uint8Array([9, 9]), { etag: `"${id.canonical}"`, contentType: "image/webp", bytes: 2, vary: [] }, Date.now() + 3_600_000);
  }
  const original = { width: 4000, height: 3000, format: "jpeg", hasAlpha: false };
  await storeMezzanine(env.FILES, file.id, new Uint8Array([7, 7]), { format: "jpeg", width: 1154, height: 865, original });
  const found = await findMezzanine(env.FILES, file.id);
  expect(found?.meta).toEqual({ format: "jpeg", width: 1154, height: 865, original });
  // The mezzanine is no derivative: not counted against the per-file cap.
  expect(await derivativeCount(env, caller.accountId, file.id)).toBe(2);
  return { caller, file, ids, keys: [...(await Promise.all(ids.map(derivativeKey))), mezzanineKey(file.id)] };
}

describe("derivatives follow their file", () => {
  it("are deleted, rows and R2 objects, mezzanine included, when the file is deleted", async () => {
    const { caller, file, keys } = await fileWithDerivatives(Date.now() + 3_600_000);
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(2);
    await deleteFile(env, caller.accountId, file.id);
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
  });

  it("with a zone token, have their cache URLs purged in every data centre through Cloudflare's API when the file is deleted", async () => {
    const { caller, file, ids } = await fileWithDerivatives(Date.now() + 3_600_000);
    const zoneId = `ok-delete-${file.id}`;
    await deleteFile({ ...env, CF_ZONE_ID: zoneId, CF_API_TOKEN: "zone-token" }, caller.accountId, file.id);
    for (const id of ids) expect(await matchEdgeCache(edgeCacheKey(env, id), [])).toBeNull();
    const standIn = env.CF_API_BASE_URL.replace(/\/client\/v4$/, "");
    const calls = await (await fetch(`${standIn}/recorded/${zoneId}`)).json<RecordedPurge[]>();
    expect(calls.map((call) => ({ path: call.path, authorization: call.authorization }))).toEqual([
      { path: `/client/v4/zones/${zoneId}/purge_cache`, authorization: "Bearer zone-token" },
    ]);
    expect((calls[0]!.body as { files: string[] }).files.toSorted()).toEqual(ids.map((id) => fileCacheKeyUrl(env, id)).toSorted());
  });

  it("stay deleted when Cloudflare refuses the purge of their cache URLs", async () => {
    const { caller, file, keys } = await fileWithDerivatives(Date.now() + 3_600_000);
    const deleted = await deleteFile({ ...env, CF_ZONE_ID: `denied-${file.id}`, CF_API_TOKEN: "revoked" }, caller.accountId, file.id);
    expect(deleted.status).toBe("deleted");
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
  });

  it("are deleted when the expiry sweep removes the file, edge cache included", async () => {
    const { caller, file, ids, keys } = await fileWithDerivatives(Date.now() - 1_000);
    for (const id of ids) expect(await matchEdgeCache(edgeCacheKey(env, id), [])).not.toBeNull();
    await fileReportFed(caller.accountId);
    await sweepExpiredFiles(env, Date.now());
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(0);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
    for (const id of ids) expect(await matchEdgeCache(edgeCacheKey(env, id), [])).toBeNull();
  });

  it("are refused when they are kept after their file's deletion: nothing kept, nothing charged", async () => {
    const { caller, file } = await fileWithDerivatives(Date.now() + 3_600_000);
    expect(await dropIfFileDeleted(env, caller.accountId, file.id, edgeCacheKey(env, { accountId: caller.accountId, fileId: file.id, canonical: "w_300", formatClass: null }))).toBe(false);
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(2);

    await deleteFile(env, caller.accountId, file.id);
    // A transform that was computing meanwhile (from an isolate's memory of the file) keeps its derivative.
    const late = { accountId: caller.accountId, fileId: file.id, canonical: "w_300", formatClass: null };
    const charge = { accountId: caller.accountId, chargeKey: `transform:${file.id}:w_300`, operation: "image.transform" as const, amountMicros: 800 };
    const refused = await storeDerivative(env, late, { body: new Uint8Array([5]), size: 1, contentType: "image/webp", etag: '"late"' }, charge).catch((e: ProblemError) => e);
    expect(refused).toMatchObject({ status: 410, slug: "gone" });
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(0);
    expect(await env.FILES.head(await derivativeKey(late))).toBeNull();
    expect(await ledgerOf(caller.accountId, (row) => row.chargeKey === charge.chargeKey)).toEqual([]);
  });
});

async function problemSlug(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: ProblemError) => e);
  return error ? `${error.status} ${error.slug}` : "resolved";
}

describe("deleteFile", () => {
  it("marks the row deleted, removes the object, and is idempotent", async () => {
    const { accountId } = await seedCaller();
    const record = await store(accountId, Date.now() + 3_600_000);
    const deleted = await deleteFile(env, accountId, record.id, "deleted", 1234);
    expect(deleted).toMatchObject({ status: "deleted", deleted_at: 1234, deleted_reason: "deleted" });
    expect(await env.FILES.head(record.r2_key)).toBeNull();
    expect(await problemSlug(findFile(env, accountId, record.id))).toBe("410 gone");
    expect(await deleteFile(env, accountId, record.id, "used_as_source", 9999)).toMatchObject({ status: "deleted", deleted_at: 1234, deleted_reason: "deleted" });
  });

  it("does not touch another account's file", async () => {
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const record = await store(theirs.accountId, Date.now() + 3_600_000);
    expect(await problemSlug(deleteFile(env, mine.accountId, record.id))).toBe("404 not_found");
    expect(await env.FILES.head(record.r2_key)).not.toBeNull();
    expect(await fileStatus(theirs.accountId, record.id)).toBe("ready");
  });
});

describe("releaseSource", () => {
  it("deletes an expiring upload a call used, and its 410 names keep_source", async () => {
    const { accountId } = await seedCaller();
    const upload = await store(accountId, Date.now() + 3_600_000);
    await releaseSource(env, accountId, { id: upload.id, kind: "source", durable: false }, false);
    expect(await env.FILES.head(upload.r2_key)).toBeNull();
    const gone = await findFile(env, accountId, upload.id).catch((e: ProblemError) => e);
    expect(gone).toMatchObject({ status: 410, slug: "gone", extensions: { deleted_reason: "used_as_source" } });
    expect((gone as ProblemError).message).toMatch(/keep_source/);
  });

  it("keeps a durable file, a kept upload and a result", async () => {
    const { accountId } = await seedCaller();
    const durable = await store(accountId, null);
    const kept = await store(accountId, Date.now() + 3_600_000);
    await releaseSource(env, accountId, { id: durable.id, kind: "source", durable: true }, false);
    await releaseSource(env, accountId, { id: kept.id, kind: "source", durable: false }, true);
    await releaseSource(env, accountId, { id: kept.id, kind: "result", durable: false }, false);
    for (const file of [durable, kept]) {
      expect(await fileStatus(accountId, file.id)).toBe("ready");
      expect(await env.FILES.head(file.r2_key)).not.toBeNull();
    }
  });
});
