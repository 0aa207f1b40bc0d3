// Every statement on the shared database's `files`: the report of every account's files, which
// the file shards keep (./shard-files.ts) and feed here (workers/billing/ledger-feed.ts). A shard
// reads its account's rows from it once, when it is first used; the expiry sweep finds expired
// files in it (their shard decides), the storage meter sums durable bytes from it, and the books
// (scripts/soak/reconcile.ts) read it. Each row carries the shard's change it reflects, so a copy
// of an older change delivered late changes nothing.
import { and, asc, eq, getTableColumns, inArray, isNull, lte, ne, sql, sum } from "drizzle-orm";
import { rowsInPages } from "../db/import-pages.ts";
import { orm } from "../db/orm.ts";
import { files } from "../db/schema.ts";
import type { FileRow, ShardFileRow } from "./shard-files.ts";
import { inChunks } from "../db/in-chunks.ts";

// The report's columns a shard keeps too: all but the account and the feed's own.
const { accountId: _accountId, fedSeq: _fedSeq, ...shardColumns } = getTableColumns(files);

/** The account's files recorded before it had a file shard, read page by page. */
export function filesBeforeShard(db: D1Database, accountId: string): Promise<ShardFileRow[]> {
  return rowsInPages(db, files, shardColumns, eq(files.accountId, accountId));
}

/** A file's state as a feed message carries it, under the shard's change `seq`. */
export interface FedFile {
  account_id: string;
  seq: number;
  row: FileRow;
}

const FILE_FIELDS = ["kind", "status", "r2_key", "filename", "content_type", "size_bytes", "sha256", "created_at", "expires_at", "deleted_at", "deleted_reason"] as const;

// One statement for a whole batch: each file's state goes in as JSON, and replaces the report's
// row only when it reflects a newer change.
const UPSERT_FED_FILES = `INSERT INTO files (id, account_id, ${FILE_FIELDS.join(", ")}, fed_seq)
  SELECT value ->> '$.row.id', value ->> 'account_id', ${FILE_FIELDS.map((field) => `value ->> '$.row.${field}'`).join(", ")}, value ->> 'seq'
  FROM json_each(?1) WHERE true
  ON CONFLICT (id) DO UPDATE SET ${FILE_FIELDS.map((field) => `${field} = excluded.${field}`).join(", ")}, fed_seq = excluded.fed_seq
  WHERE excluded.fed_seq > files.fed_seq AND excluded.account_id = files.account_id`;

// About 400 bytes a file, well under D1's 2 MB for a bound value.
const FILES_PER_STATEMENT = 3_000;

/** The statements that bring the report up to the fed states, for the feed's one batch (one transaction). */
export function fedFileStatements(db: D1Database, fed: FedFile[]): D1PreparedStatement[] {
  return inChunks(fed, FILES_PER_STATEMENT).map((chunk) => db.prepare(UPSERT_FED_FILES).bind(JSON.stringify(chunk)));
}

/** Files the report has live and past their expiry at `now`, soonest first; a durable file (null expiry) never is. */
export async function reportedExpiredFiles(db: D1Database, now: number, limit: number): Promise<{ id: string; account_id: string }[]> {
  return orm(db)
    .select({ id: files.id, account_id: files.accountId })
    .from(files)
    .where(and(inArray(files.status, ["pending", "ready"]), lte(files.expiresAt, now)))
    .orderBy(asc(files.expiresAt))
    .limit(limit)
    .all();
}

// D1 binds at most 100 parameters per statement; drizzle binds every value, so four go to
// the new status, deleted_at, deleted_reason and the status compared against.
const IDS_PER_UPDATE = 96;

/**
 * Records in the report the files the sweep just expired in their shards, so the next sweep does
 * not list them again while their shard's feed is on its way (the feed then brings the same state).
 */
export async function reportFilesExpired(db: D1Database, fileIds: string[], now: number): Promise<void> {
  if (fileIds.length === 0) return;
  const handle = orm(db);
  const updates = inChunks(fileIds, IDS_PER_UPDATE).map((chunk) =>
    handle.update(files).set({ status: "deleted", deletedAt: now, deletedReason: "expired" }).where(and(ne(files.status, "deleted"), inArray(files.id, chunk))),
  );
  await handle.batch(updates as [(typeof updates)[number], ...(typeof updates)[number][]]);
}

const durableBytes = sql<number>`COALESCE(${sum(files.sizeBytes)}, 0)`.mapWith(Number);

/** Every account's stored durable bytes, for the daily storage charge. */
export async function durableBytesByAccount(db: D1Database): Promise<{ accountId: string; bytes: number }[]> {
  return orm(db)
    .select({ accountId: files.accountId, bytes: durableBytes })
    .from(files)
    .where(and(isNull(files.expiresAt), eq(files.status, "ready")))
    .groupBy(files.accountId)
    .all();
}

/** The account a file belongs to, for a download link signed before links named their account; null for no such file. */
export async function reportedFileOwner(db: D1Database, fileId: string): Promise<string | null> {
  const row = await orm(db).select({ account_id: files.accountId }).from(files).where(eq(files.id, fileId)).get();
  return row?.account_id ?? null;
}

/** Every file row, deleted ones too, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function fileRows(db: D1Database) {
  return orm(db).select({ id: files.id, account_id: files.accountId, kind: files.kind, status: files.status, r2_key: files.r2Key }).from(files);
}

/** The file not deleted whose object is `r2Key`, if any: a query, so the books can batch it with the derivative lookup. */
export function liveFileAt(db: D1Database, r2Key: string) {
  return orm(db).select({ id: files.id }).from(files).where(and(eq(files.r2Key, r2Key), ne(files.status, "deleted"))).limit(1);
}

/** The report's file progress: the sum of its rows' change numbers, which moves with every fed change. */
export function fedFileProgress(db: D1Database) {
  return orm(db).select({ n: sql<number>`COALESCE(SUM(${files.fedSeq}), 0)` }).from(files);
}
