// Every statement on a file shard's `files` and `file_changes` (workers/shards/shard-schema.ts).
// The shard is the account's own file index, so a file is named by its id alone, and the shard
// runs one call at a time. Each write also records the file as changed, for the shared report
// (./d1-files.ts), which the ledger feed brings up to date. A row is never removed: a deleted
// file keeps its row (its 410 says when and why), so the report only ever moves forward.
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql, sum } from "drizzle-orm";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardFileChanges as changes, shardFiles as files } from "../shards/shard-schema.ts";
import { inChunks } from "../db/in-chunks.ts";

/** A file's row as its shard keeps it. */
export type ShardFileRow = typeof files.$inferSelect;
export type ShardFileStatus = ShardFileRow["status"];
export type ShardDeletedReason = NonNullable<ShardFileRow["deletedReason"]>;

/** A file's row as the API and the feed spell it (the report adds its account). */
export interface FileRow {
  id: string;
  kind: ShardFileRow["kind"];
  status: ShardFileStatus;
  r2_key: string;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string | null;
  created_at: number;
  /** Null for a durable file: kept until it is deleted. */
  expires_at: number | null;
  deleted_at: number | null;
  deleted_reason: ShardDeletedReason | null;
}

export function fileRowOf(row: ShardFileRow): FileRow {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    r2_key: row.r2Key,
    filename: row.filename,
    content_type: row.contentType,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
    deleted_at: row.deletedAt,
    deleted_reason: row.deletedReason,
  };
}

/** A file changed since the report last heard, as it is now. */
export interface FileChange {
  seq: number;
  row: ShardFileRow;
}

/** Where a page of files starts: after the (created_at, id) pair of the last file of the page before. */
export interface FileCursor {
  createdAt: number;
  id: string;
}

export interface DurableUsage {
  bytes: number;
  files: number;
}

function touch(db: ShardDb, fileIds: string[]): void {
  // A new row for each, so a change made while an earlier one is being sent is sent again.
  for (const fileId of fileIds) {
    db.delete(changes).where(eq(changes.fileId, fileId)).run();
    db.insert(changes).values({ fileId }).run();
  }
}

function changed(db: ShardDb, row: ShardFileRow | undefined): ShardFileRow | null {
  if (!row) return null;
  touch(db, [row.id]);
  return row;
}

export function insertShardFile(db: ShardDb, row: ShardFileRow): void {
  db.insert(files).values(row).run();
  touch(db, [row.id]);
}

export function findShardFile(db: ShardDb, fileId: string): ShardFileRow | null {
  return db.select().from(files).where(eq(files.id, fileId)).get() ?? null;
}

/** Flips a pending row to ready; null when it is no longer pending (already ready, or deleted). */
export function markShardFileReady(db: ShardDb, fileId: string): ShardFileRow | null {
  return changed(db, db.update(files).set({ status: "ready" }).where(and(eq(files.id, fileId), eq(files.status, "pending"))).returning().get());
}

/** Marks the file deleted, keeping the first deletion's moment and reason; null for no such file. */
export function markShardFileDeleted(db: ShardDb, fileId: string, reason: ShardDeletedReason, now: number): ShardFileRow | null {
  const update = db
    .update(files)
    .set({ status: "deleted", deletedAt: sql`COALESCE(${files.deletedAt}, ${now})`, deletedReason: sql`COALESCE(${files.deletedReason}, ${reason})` })
    .where(eq(files.id, fileId));
  return changed(db, update.returning().get());
}

/** Sets (or with null, lifts) a live file's expiry; null when there is no such live file. */
export function setShardFileExpiry(db: ShardDb, fileId: string, expiresAt: number | null): ShardFileRow | null {
  return changed(db, db.update(files).set({ expiresAt }).where(and(eq(files.id, fileId), ne(files.status, "deleted"))).returning().get());
}

// A shard binds at most 100 parameters a statement; five go to the new values and the checks.
const IDS_PER_EXPIRY = 95;

/**
 * Marks deleted, as expired, those of the files that are live and past their expiry at `now`
 * (the caller found them in the report, which a later change may have overtaken); returns them.
 */
export function expireShardFiles(db: ShardDb, fileIds: string[], now: number): ShardFileRow[] {
  const expired = inChunks(fileIds, IDS_PER_EXPIRY).flatMap((chunk) =>
    db
      .update(files)
      .set({ status: "deleted", deletedAt: now, deletedReason: "expired" })
      .where(and(inArray(files.id, chunk), ne(files.status, "deleted"), lte(files.expiresAt, now)))
      .returning()
      .all(),
  );
  touch(db, expired.map((row) => row.id));
  return expired;
}

/** A page of the live files (not deleted, not past their expiry), newest first, after the cursor. */
export function listShardFiles(db: ShardDb, limit: number, after: FileCursor | null, now: number): ShardFileRow[] {
  return db
    .select()
    .from(files)
    .where(
      and(
        ne(files.status, "deleted"),
        or(isNull(files.expiresAt), gt(files.expiresAt, now)),
        after ? or(lt(files.createdAt, after.createdAt), and(eq(files.createdAt, after.createdAt), lt(files.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(limit)
    .all();
}

/**
 * The durable files: `ready` ones are what the account stores (and pays for); `reserved` adds
 * pending uploads, which hold their declared size against the quota until completed or expired.
 */
export function shardDurableUsage(db: ShardDb, scope: "ready" | "reserved"): DurableUsage {
  const statuses: ShardFileStatus[] = scope === "ready" ? ["ready"] : ["pending", "ready"];
  const row = db
    .select({ bytes: sql<number>`COALESCE(${sum(files.sizeBytes)}, 0)`.mapWith(Number), files: count() })
    .from(files)
    .where(and(isNull(files.expiresAt), inArray(files.status, statuses)))
    .get();
  return row ?? { bytes: 0, files: 0 };
}

/** Rows the shared database held before the account had a file shard: the report has them already. */
export function importShardFiles(db: ShardDb, rows: ShardFileRow[]): void {
  for (const row of rows) db.insert(files).values(row).onConflictDoNothing().run();
}

/** Up to `limit` files changed since the report last heard, oldest change first, each as it is now. */
export function unfedFileChanges(db: ShardDb, limit: number): FileChange[] {
  const touched = db.select().from(changes).orderBy(asc(changes.seq)).limit(limit).all();
  return touched.flatMap((change) => {
    const row = findShardFile(db, change.fileId);
    return row ? [{ seq: change.seq, row }] : [];
  });
}

/** Forgets the changes the report now has; a file changed again since keeps its newer entry. */
export function markFilesFed(db: ShardDb, throughSeq: number): void {
  db.delete(changes).where(sql`${changes.seq} <= ${throughSeq}`).run();
}
