// A file's end, and everything that goes with it. The file store, the derivative store, the
// mezzanines and the edge cache each own their part; this module is the one place that knows a
// file's deletion reaches all of them, so none of those stores needs to know about the others.
// Durable files (no expiry) end only here, by deleteFile: the sweep never matches them and a
// processing call never consumes them (releaseSource).
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { deleteDerivativesOf, derivativesOfFiles } from "../derivatives/derivative-store.ts";
import { purgeZoneUrls, type ZonePurgeEnv } from "../cdn/zone-purge.ts";
import { deleteEdgeCache, MAX_EDGE_CACHE_PURGES, type CacheKeyEnv } from "../derivatives/edge-cache.ts";
import { derivativeCacheUrls } from "../origins/derivative-cache-urls.ts";
import { deleteMezzaninesOf } from "../derivatives/mezzanine-store.ts";
import { reportedExpiredFiles, reportFilesExpired } from "./d1-files.ts";
import { expireFiles, findFileRow, markFileDeleted, type DeletedReason, type FileRecord } from "./file-store.ts";
import { sawFile } from "./recent-files.ts";
import { deleteObjects } from "../objects/delete-objects.ts";

type LifecycleEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS" | "FILE_SHARDS"> & CacheKeyEnv;

/**
 * Forgets everything derived from the given files: derivative rows and objects, this data
 * centre's edge-cache entries for them, and the files' mezzanines. Returns how many derivatives
 * and edge-cache entries went, and the cache URLs of every derivative (for a purge beyond this
 * data centre). `gone`: the files were deleted, so a derivative of one finished later is refused.
 */
export async function dropDerivativesOfFiles(
  env: LifecycleEnv,
  accountId: string,
  fileIds: string[],
  gone: boolean,
): Promise<{ derivatives: number; edgeEntries: number; cacheUrls: string[] }> {
  const deleted = await deleteDerivativesOf(env, accountId, fileIds, gone);
  const cacheUrls = await derivativeCacheUrls(env, deleted);
  let edgeEntries = 0;
  for (const url of cacheUrls.slice(0, MAX_EDGE_CACHE_PURGES)) if (await deleteEdgeCache(url)) edgeEntries++;
  await deleteMezzaninesOf(env.FILES, fileIds);
  return { derivatives: deleted.length, edgeEntries, cacheUrls };
}

/**
 * Deletes a file of the account with what derives from it: the row first, then the objects.
 * Repeating it is harmless. Its derivatives' cache URLs are purged in every data centre too when
 * the zone is configured: a durable file's entries are otherwise kept a year. A purge Cloudflare
 * refuses is logged and leaves the deletion standing.
 */
export async function deleteFile(env: LifecycleEnv & ZonePurgeEnv, accountId: string, fileId: string, reason: DeletedReason = "deleted", now = Date.now()): Promise<FileRecord> {
  const record = await markFileDeleted(env, accountId, fileId, reason, now);
  sawFile(accountId, fileId, record);
  if (!record) throw new ProblemError("not_found", `No file ${fileId} in this account.`);
  await env.FILES.delete(record.r2_key);
  const { cacheUrls } = await dropDerivativesOfFiles(env, accountId, [fileId], true);
  const cdn = await purgeZoneUrls(env, cacheUrls);
  if (cdn.status === "failed") console.error(`Deleting ${fileId}: ${cdn.urls_not_purged} cache URLs not purged beyond this data centre. ${cdn.error}`);
  return record;
}

/**
 * After a processing call used a stored file as its source: an upload that expires is used once
 * and deleted, unless the call keeps it; a durable file and a result are never deleted by a call.
 */
export async function releaseSource(
  env: LifecycleEnv & ZonePurgeEnv,
  accountId: string,
  file: { id: string; kind: "source" | "result"; durable: boolean } | null,
  keep: boolean,
): Promise<void> {
  if (!file || file.kind !== "source" || file.durable || keep) return;
  await deleteFile(env, accountId, file.id, "used_as_source");
}

/**
 * Deletes up to `limit` files whose expiry is at or before `now` (durable files have none), as
 * the shared report lists them; each account's file shard decides, since a change the report has
 * not heard yet (an expiry lifted) may have overtaken it. Returns how many the report listed:
 * call again while it returns `limit` to drain a backlog.
 */
export async function sweepExpiredFiles(env: LifecycleEnv, now = Date.now(), limit = 500): Promise<number> {
  const listed = await reportedExpiredFiles(env.DB, now, limit);
  const byAccount = new Map<string, string[]>();
  for (const row of listed) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row.id]);
  const expiredIds: string[] = [];
  for (const [accountId, fileIds] of byAccount) {
    const expired = await expireFiles(env, accountId, fileIds, now);
    if (expired.length === 0) continue;
    await deleteObjects(env.FILES, expired.map((file) => file.r2_key));
    await dropDerivativesOfFiles(env, accountId, expired.map((file) => file.id), true);
    expiredIds.push(...expired.map((file) => file.id));
  }
  await reportFilesExpired(env.DB, expiredIds, now);
  return listed.length;
}

/**
 * For a derivative stored and put in the edge cache at `cacheEntry` while its file was being
 * deleted: that deletion found none of it to drop, or dropped its row before the entry was put, so
 * both go now. True when the file is gone. What the file shard says is remembered for the next
 * miss (./recent-files.ts).
 */
export async function dropIfFileDeleted(env: LifecycleEnv, accountId: string, fileId: string, cacheEntry: Request): Promise<boolean> {
  const record = await findFileRow(env, accountId, fileId);
  sawFile(accountId, fileId, record);
  if (record !== null && record.status !== "deleted") return false;
  await dropDerivativesOfFiles(env, accountId, [fileId], true);
  await deleteEdgeCache(cacheEntry);
  return true;
}

/**
 * Purge of files: what derives from the caller's own files goes; the files stay. Their cache URLs
 * are purged in every data centre too when the zone is configured.
 */
export async function purgeFiles(env: LifecycleEnv & ZonePurgeEnv, accountId: string, fileIds: string[]) {
  // Only the caller's own files: the derivative store deletes by file id alone. A file that is
  // only some derivative's overlay is the caller's too when the derivative is.
  const used = await derivativesOfFiles(env, accountId, fileIds);
  const owned = [...new Set(fileIds)].filter((id) => used.some((d) => d.fileId === id || d.overlayFileId === id));
  const { derivatives, edgeEntries, cacheUrls } = owned.length === 0 ? { derivatives: 0, edgeEntries: 0, cacheUrls: [] } : await dropDerivativesOfFiles(env, accountId, owned, false);
  return { originals: 0, derivatives, edge_entries: edgeEntries, cdn: await purgeZoneUrls(env, cacheUrls) };
}
