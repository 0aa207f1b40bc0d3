// Files: one D1 row per R2 object. A row is inserted `pending` before its object is written and
// flipped to `ready` only after the write succeeded, so a crash in between leaves a pending row
// (swept, object and all, when it expires) and never a ready row without an object. Deletion
// runs the other way: the row is marked deleted first, then the object is removed (deleting a
// file with everything derived from it is workers/files/file-lifecycle.ts's work).
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql, sum, count } from "drizzle-orm";
import { findAccountSettings } from "../accounts/account-store.ts";
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { newId } from "../crypto/ids.ts";
import { orm } from "../db/orm.ts";
import { files } from "../db/schema.ts";
import { resolveByteRange, type ByteRange } from "./byte-range.ts";
import { putObject, readObject } from "../objects/file-objects.ts";

export type FileKind = "source" | "result";
export type FileStatus = "pending" | "ready" | "deleted";
/** Why a deleted file went: acknowledged (or a write that failed), expired, or used up by a processing call. */
export type DeletedReason = "deleted" | "expired" | "used_as_source";

export interface FileRecord {
  id: string;
  account_id: string;
  kind: FileKind;
  status: FileStatus;
  r2_key: string;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string | null;
  created_at: number;
  /** Null for a durable file: kept until it is deleted. */
  expires_at: number | null;
  deleted_at: number | null;
  deleted_reason: DeletedReason | null;
}

export interface NewFile {
  accountId: string;
  kind: FileKind;
  contentType: string;
  sizeBytes: number;
  filename?: string | null;
  /** Null keeps the file until it is deleted. */
  expiresAt: number | null;
  sha256?: string;
}

export interface StoreFileInput {
  accountId: string;
  kind: FileKind;
  body: Uint8Array | ReadableStream;
  size: number;
  contentType: string;
  filename?: string | null;
  /** Defaults to now plus the account's retention; null keeps the file until it is deleted. */
  expiresAt?: number | null;
  /** Hex SHA-256 of the body: R2 refuses the write when the bytes do not match it. */
  sha256?: string;
  /**
   * Runs once the pending row is in and before any byte is written (a durable file's admission:
   * workers/files/durable-admission.ts). When it throws, the row is removed and nothing is stored.
   */
  admit?: (pending: FileRecord) => Promise<void>;
}

type FileEnv = Pick<Bindings, "DB" | "FILES">;

const fileColumns = {
  id: files.id,
  account_id: files.accountId,
  kind: files.kind,
  status: files.status,
  r2_key: files.r2Key,
  filename: files.filename,
  content_type: files.contentType,
  size_bytes: files.sizeBytes,
  sha256: files.sha256,
  created_at: files.createdAt,
  expires_at: files.expiresAt,
  deleted_at: files.deletedAt,
  deleted_reason: files.deletedReason,
};

export function fileKey(accountId: string, fileId: string): string {
  return `accounts/${accountId}/${fileId}`;
}

export async function insertPendingFile(db: D1Database, file: NewFile, now = Date.now()): Promise<FileRecord> {
  const id = newId("file");
  const record: FileRecord = {
    id,
    account_id: file.accountId,
    kind: file.kind,
    status: "pending",
    r2_key: fileKey(file.accountId, id),
    filename: file.filename ?? null,
    content_type: file.contentType,
    size_bytes: file.sizeBytes,
    sha256: file.sha256 ?? null,
    created_at: now,
    expires_at: file.expiresAt,
    deleted_at: null,
    deleted_reason: null,
  };
  await orm(db)
    .insert(files)
    .values({
      id: record.id,
      accountId: record.account_id,
      kind: record.kind,
      status: record.status,
      r2Key: record.r2_key,
      filename: record.filename,
      contentType: record.content_type,
      sizeBytes: record.size_bytes,
      sha256: record.sha256,
      createdAt: record.created_at,
      expiresAt: record.expires_at,
      deletedAt: record.deleted_at,
    })
    .run();
  return record;
}

/** Flips a pending row to ready; null when it is no longer pending (already ready, or deleted). */
export async function markFileReady(db: D1Database, accountId: string, fileId: string): Promise<FileRecord | null> {
  const record = await orm(db)
    .update(files)
    .set({ status: "ready" })
    .where(and(eq(files.id, fileId), eq(files.accountId, accountId), eq(files.status, "pending")))
    .returning(fileColumns)
    .get();
  return record ?? null;
}

export async function storeFile(env: FileEnv, input: StoreFileInput): Promise<FileRecord> {
  if (input.body instanceof Uint8Array && input.body.byteLength !== input.size) {
    throw new RangeError(`storeFile: body has ${input.body.byteLength} bytes, size says ${input.size}`);
  }
  const { accountId, kind, contentType, filename, sha256 } = input;
  const expiresAt = input.expiresAt === undefined ? Date.now() + (await retentionFor(env.DB, accountId)) : input.expiresAt;
  const pending = await insertPendingFile(env.DB, { accountId, kind, contentType, sizeBytes: input.size, filename, expiresAt, sha256 });
  if (input.admit) {
    try {
      await input.admit(pending);
    } catch (error) {
      await discardPendingFile(env.DB, pending.id);
      throw error;
    }
  }
  try {
    await putObject(env.FILES, pending.r2_key, input, { httpMetadata: { contentType: input.contentType } });
  } catch (error) {
    // A new file has nothing derived from it yet: its row and its object are all there is.
    await markFileDeleted(env.DB, accountId, pending.id, "deleted");
    await env.FILES.delete(pending.r2_key);
    throw error;
  }
  return (await markFileReady(env.DB, accountId, pending.id)) ?? findFile(env.DB, accountId, pending.id);
}

/** Removes a pending row whose object was never written (a file refused before its bytes were stored). */
export async function discardPendingFile(db: D1Database, fileId: string): Promise<void> {
  await orm(db).delete(files).where(and(eq(files.id, fileId), eq(files.status, "pending"))).run();
}

function goneDetail(record: FileRecord): string {
  const at = new Date(record.deleted_at ?? record.expires_at ?? 0).toISOString();
  switch (record.deleted_reason) {
    case "used_as_source":
      return `File ${record.id} was deleted at ${at} by the processing call that used it as its source: an upload that expires is used once unless the call sets \`keep_source: true\` (image options). A durable file (\`expires_at: null\`, POST /v1/files or PATCH /v1/files/{file_id}) is never deleted by a call.`;
    case "expired":
      return `File ${record.id} expired at ${at}.`;
    default:
      return `File ${record.id} was deleted at ${at}.`;
  }
}

/** The file's row. Another account's id is 404 like a missing one; deleted or expired is 410. */
export async function findFile(db: D1Database, accountId: string, fileId: string, now = Date.now()): Promise<FileRecord> {
  const record = await orm(db).select(fileColumns).from(files).where(and(eq(files.id, fileId), eq(files.accountId, accountId))).get();
  if (!record) throw new ProblemError("not_found", `No file ${fileId} in this account.`);
  if (record.status === "deleted") throw new ProblemError("gone", goneDetail(record), { extensions: { deleted_reason: record.deleted_reason } });
  if (record.expires_at !== null && record.expires_at <= now) {
    throw new ProblemError("gone", `File ${fileId} expired at ${new Date(record.expires_at).toISOString()}.`);
  }
  return record;
}

/** The file's row, when its bytes are all there to read: an upload not completed yet is 409. */
export async function findReadyFile(db: D1Database, accountId: string, fileId: string): Promise<FileRecord> {
  const record = await findFile(db, accountId, fileId);
  if (record.status === "pending") {
    throw new ProblemError("upload_incomplete", `File ${fileId} is an upload that was not completed: PUT its bytes, then POST /v1/uploads/${fileId}/complete.`);
  }
  return record;
}

/**
 * The account that owns a file, for the signed download path, where the URL's signature (not an
 * API key) is the credential.
 */
export async function findFileOwner(db: D1Database, fileId: string): Promise<string> {
  const row = await orm(db).select({ account_id: files.accountId }).from(files).where(eq(files.id, fileId)).get();
  if (!row) throw new ProblemError("not_found", `No file ${fileId}.`);
  return row.account_id;
}

export interface OpenedFile {
  record: FileRecord;
  object: R2ObjectBody;
  /** The part being read when `rangeHeader` asked for one, null for the whole file. */
  range: ByteRange | null;
}

/**
 * Opens a ready file for reading. `rangeHeader` is an HTTP Range value (`bytes=0-1023`); an
 * unsatisfiable one is a 416, one that is malformed or asks for several ranges reads it all.
 */
export async function openFile(env: FileEnv, accountId: string, fileId: string, rangeHeader?: string | null): Promise<OpenedFile> {
  const record = await findReadyFile(env.DB, accountId, fileId);
  const range = resolveByteRange(rangeHeader ?? null, record.size_bytes);
  if (range === "unsatisfiable") {
    throw new ProblemError("range_not_satisfiable", `The file has ${record.size_bytes} bytes; the requested range lies outside it.`, {
      headers: { "Content-Range": `bytes */${record.size_bytes}` },
    });
  }
  const object = await readObject(env.FILES, record.r2_key, fileId, range ? { range } : {});
  return { record, object, range };
}

/**
 * Marks a file of the account deleted (the first time's moment and reason are kept); its object
 * and what derives from it are the caller's to remove afterwards. Null for no such file.
 */
export async function markFileDeleted(db: D1Database, accountId: string, fileId: string, reason: DeletedReason, now = Date.now()): Promise<FileRecord | null> {
  const record = await orm(db)
    .update(files)
    .set({
      status: "deleted",
      deletedAt: sql`COALESCE(${files.deletedAt}, ${now})`,
      deletedReason: sql`COALESCE(${files.deletedReason}, ${reason})`,
    })
    .where(and(eq(files.id, fileId), eq(files.accountId, accountId)))
    .returning(fileColumns)
    .get();
  return record ?? null;
}

const HOUR_MS = 3_600_000;

/** How long the account keeps its files, in milliseconds (accounts.retention_hours). */
export async function retentionFor(db: D1Database, accountId: string): Promise<number> {
  const settings = await findAccountSettings(db, accountId);
  if (!settings) throw new ProblemError("not_found", `No account ${accountId}.`);
  return settings.retention_hours * HOUR_MS;
}

/** The file's status whatever its account's view of it; null when there is no such row. */
export async function findFileStatus(db: D1Database, accountId: string, fileId: string): Promise<FileStatus | null> {
  const row = await orm(db).select({ status: files.status }).from(files).where(and(eq(files.id, fileId), eq(files.accountId, accountId))).get();
  return row?.status ?? null;
}

/** Files whose expiry is at or before `now` and that are not deleted yet, soonest first; a durable file (null expiry) never is. */
export async function listExpiredFiles(db: D1Database, now: number, limit: number): Promise<{ id: string; account_id: string; r2_key: string }[]> {
  return orm(db)
    .select({ id: files.id, account_id: files.accountId, r2_key: files.r2Key })
    .from(files)
    .where(and(inArray(files.status, ["pending", "ready"]), lte(files.expiresAt, now)))
    .orderBy(asc(files.expiresAt))
    .limit(limit)
    .all();
}

// D1 binds at most 100 parameters per statement; drizzle binds every value, so four go to
// the new status, deleted_at, deleted_reason and the status compared against.
const IDS_PER_UPDATE = 96;

/** Marks expired files deleted in one batch; their objects are the caller's to remove afterwards. */
export async function markFilesExpired(db: D1Database, fileIds: string[], now: number): Promise<void> {
  if (fileIds.length === 0) return;
  const handle = orm(db);
  const updates = [];
  for (let i = 0; i < fileIds.length; i += IDS_PER_UPDATE) {
    const chunk = fileIds.slice(i, i + IDS_PER_UPDATE);
    updates.push(
      handle
        .update(files)
        .set({ status: "deleted", deletedAt: now, deletedReason: "expired" })
        .where(and(ne(files.status, "deleted"), inArray(files.id, chunk))),
    );
  }
  await handle.batch(updates as [(typeof updates)[number], ...(typeof updates)[number][]]);
}

/** Sets (or with null, lifts) a live file's expiry; null when the account has no such live file. */
export async function setFileExpiry(db: D1Database, accountId: string, fileId: string, expiresAt: number | null): Promise<FileRecord | null> {
  const record = await orm(db)
    .update(files)
    .set({ expiresAt })
    .where(and(eq(files.id, fileId), eq(files.accountId, accountId), ne(files.status, "deleted")))
    .returning(fileColumns)
    .get();
  return record ?? null;
}

export interface FileCursor {
  createdAt: number;
  id: string;
}

/**
 * A page of the account's live files (not deleted, not past their expiry), newest first. The
 * order is (created_at, id) descending and the cursor is the last row's pair, so files stored
 * after the first page was read never shift the pages after it.
 */
export async function listFiles(db: D1Database, accountId: string, page: { limit: number; after: FileCursor | null }, now = Date.now()): Promise<FileRecord[]> {
  const { after } = page;
  return orm(db)
    .select(fileColumns)
    .from(files)
    .where(
      and(
        eq(files.accountId, accountId),
        ne(files.status, "deleted"),
        or(isNull(files.expiresAt), gt(files.expiresAt, now)),
        after ? or(lt(files.createdAt, after.createdAt), and(eq(files.createdAt, after.createdAt), lt(files.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(page.limit)
    .all();
}

export interface DurableUsage {
  bytes: number;
  files: number;
}

const durableBytes = sql<number>`COALESCE(${sum(files.sizeBytes)}, 0)`.mapWith(Number);

/**
 * The account's durable files: `ready` ones are what it stores (and pays for); `reserved` adds
 * pending uploads, which hold their declared size against the quota until completed or expired.
 */
export async function durableUsage(db: D1Database, accountId: string, scope: "ready" | "reserved"): Promise<DurableUsage> {
  const statuses: FileStatus[] = scope === "ready" ? ["ready"] : ["pending", "ready"];
  const row = await orm(db)
    .select({ bytes: durableBytes, files: count() })
    .from(files)
    .where(and(eq(files.accountId, accountId), isNull(files.expiresAt), inArray(files.status, statuses)))
    .get();
  return row ?? { bytes: 0, files: 0 };
}

/** Every account's stored durable bytes, for the daily storage charge. */
export async function durableBytesByAccount(db: D1Database): Promise<{ accountId: string; bytes: number }[]> {
  return orm(db)
    .select({ accountId: files.accountId, bytes: durableBytes })
    .from(files)
    .where(and(isNull(files.expiresAt), eq(files.status, "ready")))
    .groupBy(files.accountId)
    .all();
}

/** Every file row, deleted ones too, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function fileRows(db: D1Database) {
  return orm(db).select({ id: files.id, account_id: files.accountId, kind: files.kind, status: files.status, r2_key: files.r2Key }).from(files);
}

/** The file not deleted whose object is `r2Key`, if any: a query, so the books can batch it with the derivative lookup. */
export function liveFileAt(db: D1Database, r2Key: string) {
  return orm(db).select({ id: files.id }).from(files).where(and(eq(files.r2Key, r2Key), ne(files.status, "deleted"))).limit(1);
}
