// Files: one row per R2 object, in the account's file shard (./shard-files.ts). A row is inserted
// `pending` before its object is written and flipped to `ready` only after the write succeeded, so
// a crash in between leaves a pending row (swept, object and all, when it expires) and never a
// ready row without an object. Deletion runs the other way: the row is marked deleted first, then
// the object is removed (deleting a file with everything derived from it is
// workers/files/file-lifecycle.ts's work).
import { findAccountSettings } from "../accounts/account-store.ts";
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { fileShard } from "../shards/shard-stub.ts";
import { fileShardOf, fileShardsPerAccount, newFileId } from "./file-shard-index.ts";
import { resolveByteRange, type ByteRange } from "./byte-range.ts";
import { putObject, readObject } from "../objects/file-objects.ts";
import { fileRowOf, type DurableUsage, type FileCursor, type FileRow, type ShardFileRow } from "./shard-files.ts";

export type { DurableUsage, FileCursor } from "./shard-files.ts";
export type FileKind = ShardFileRow["kind"];
export type FileStatus = ShardFileRow["status"];
/** Why a deleted file went: acknowledged (or a write that failed), expired, or used up by a processing call. */
export type DeletedReason = NonNullable<ShardFileRow["deletedReason"]>;

export interface FileRecord extends FileRow {
  account_id: string;
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
   * workers/files/durable-admission.ts). When it throws, the row is ended and nothing is stored.
   */
  admit?: (pending: FileRecord) => Promise<void>;
}

/** The file index alone (the account's file shard). */
export type FileIndexEnv = Pick<Bindings, "FILE_SHARDS" | "FILE_SHARDS_PER_ACCOUNT">;
type FileEnv = Pick<Bindings, "DB" | "FILES" | "FILE_SHARDS" | "FILE_SHARDS_PER_ACCOUNT">;

/**
 * The shard `fileId` names; null for a shard the account does not use, which holds no file (a
 * transform URL is public: a made-up id wakes no object).
 */
function shardIndexOf(env: FileIndexEnv, fileId: string): number | null {
  const index = fileShardOf(fileId);
  return index < fileShardsPerAccount(env.FILE_SHARDS_PER_ACCOUNT) ? index : null;
}

/** The file shard that holds `fileId`, and its name for the shard's calls; null when no shard can. */
function holding(env: FileIndexEnv, accountId: string, fileId: string) {
  const index = shardIndexOf(env, fileId);
  return index === null ? null : { shard: fileShard(env, accountId, index), name: { accountId, index } };
}

/** Every file shard of the account, for what spans its files (FILE_SHARDS_PER_ACCOUNT may be raised, never lowered). */
function everyShard(env: FileIndexEnv, accountId: string) {
  return Array.from({ length: fileShardsPerAccount(env.FILE_SHARDS_PER_ACCOUNT) }, (_, index) => ({ shard: fileShard(env, accountId, index), name: { accountId, index } }));
}

/** The API's record of a shard's row. */
function fileRecord(accountId: string, row: ShardFileRow): FileRecord {
  return { ...fileRowOf(row), account_id: accountId };
}

const recordOf = (accountId: string, row: ShardFileRow | null): FileRecord | null => (row === null ? null : fileRecord(accountId, row));

export function fileKey(accountId: string, fileId: string): string {
  return `accounts/${accountId}/${fileId}`;
}

export async function insertPendingFile(env: FileIndexEnv, file: NewFile, now = Date.now()): Promise<FileRecord> {
  const id = newFileId(fileShardsPerAccount(env.FILE_SHARDS_PER_ACCOUNT));
  const row: ShardFileRow = {
    id,
    kind: file.kind,
    status: "pending",
    r2Key: fileKey(file.accountId, id),
    filename: file.filename ?? null,
    contentType: file.contentType,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256 ?? null,
    createdAt: now,
    expiresAt: file.expiresAt,
    deletedAt: null,
    deletedReason: null,
  };
  const index = fileShardOf(id);
  await fileShard(env, file.accountId, index).insertFile({ accountId: file.accountId, index }, row);
  return fileRecord(file.accountId, row);
}

/** Flips a pending row to ready; null when it is no longer pending (already ready, or deleted). */
export async function markFileReady(env: FileIndexEnv, accountId: string, fileId: string): Promise<FileRecord | null> {
  const held = holding(env, accountId, fileId);
  return held && recordOf(accountId, await held.shard.markFileReady(held.name, fileId));
}

export async function storeFile(env: FileEnv, input: StoreFileInput): Promise<FileRecord> {
  if (input.body instanceof Uint8Array && input.body.byteLength !== input.size) {
    throw new RangeError(`storeFile: body has ${input.body.byteLength} bytes, size says ${input.size}`);
  }
  const { accountId, kind, contentType, filename, sha256 } = input;
  const expiresAt = input.expiresAt === undefined ? Date.now() + (await retentionFor(env.DB, accountId)) : input.expiresAt;
  const pending = await insertPendingFile(env, { accountId, kind, contentType, sizeBytes: input.size, filename, expiresAt, sha256 });
  if (input.admit) {
    try {
      await input.admit(pending);
    } catch (error) {
      await markFileDeleted(env, accountId, pending.id, "deleted");
      throw error;
    }
  }
  try {
    await putObject(env.FILES, pending.r2_key, input, { httpMetadata: { contentType: input.contentType } });
  } catch (error) {
    // A new file has nothing derived from it yet: its row and its object are all there is.
    await markFileDeleted(env, accountId, pending.id, "deleted");
    await env.FILES.delete(pending.r2_key);
    throw error;
  }
  return (await markFileReady(env, accountId, pending.id)) ?? findFile(env, accountId, pending.id);
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
export async function findFile(env: FileIndexEnv, accountId: string, fileId: string, now = Date.now()): Promise<FileRecord> {
  const record = await findFileRow(env, accountId, fileId);
  if (!record) throw new ProblemError("not_found", `No file ${fileId} in this account.`);
  if (record.status === "deleted") throw new ProblemError("gone", goneDetail(record), { extensions: { deleted_reason: record.deleted_reason } });
  if (record.expires_at !== null && record.expires_at <= now) {
    throw new ProblemError("gone", `File ${fileId} expired at ${new Date(record.expires_at).toISOString()}.`);
  }
  return record;
}

/** The file's row, when its bytes are all there to read: an upload not completed yet is 409. */
export async function findReadyFile(env: FileIndexEnv, accountId: string, fileId: string): Promise<FileRecord> {
  const record = await findFile(env, accountId, fileId);
  if (record.status === "pending") {
    throw new ProblemError("upload_incomplete", `File ${fileId} is an upload that was not completed: PUT its bytes, then POST /v1/uploads/${fileId}/complete.`);
  }
  return record;
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
  const record = await findReadyFile(env, accountId, fileId);
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
export async function markFileDeleted(env: FileIndexEnv, accountId: string, fileId: string, reason: DeletedReason, now = Date.now()): Promise<FileRecord | null> {
  const held = holding(env, accountId, fileId);
  return held && recordOf(accountId, await held.shard.markFileDeleted(held.name, fileId, reason, now));
}

const HOUR_MS = 3_600_000;

/** How long the account keeps its files, in milliseconds (accounts.retention_hours). */
export async function retentionFor(db: D1Database, accountId: string): Promise<number> {
  const settings = await findAccountSettings(db, accountId);
  if (!settings) throw new ProblemError("not_found", `No account ${accountId}.`);
  return settings.retention_hours * HOUR_MS;
}

/** The file's row whatever its status (the transform path's last check); null when there is no such file. */
export async function findFileRow(env: FileIndexEnv, accountId: string, fileId: string): Promise<FileRecord | null> {
  const held = holding(env, accountId, fileId);
  return held && recordOf(accountId, await held.shard.file(held.name, fileId));
}

/** Marks deleted, as expired, those of the account's files that are still live and past their expiry at `now`; returns them. */
export async function expireFiles(env: FileIndexEnv, accountId: string, fileIds: string[], now: number): Promise<FileRecord[]> {
  const byShard = new Map<number, string[]>();
  for (const fileId of fileIds) {
    const index = shardIndexOf(env, fileId);
    if (index !== null) byShard.set(index, [...(byShard.get(index) ?? []), fileId]);
  }
  const expired = await Promise.all([...byShard].map(([index, ids]) => fileShard(env, accountId, index).expireFiles({ accountId, index }, ids, now)));
  return expired.flat().map((row) => fileRecord(accountId, row));
}

/** Sets (or with null, lifts) a live file's expiry; null when the account has no such live file. */
export async function setFileExpiry(env: FileIndexEnv, accountId: string, fileId: string, expiresAt: number | null): Promise<FileRecord | null> {
  const held = holding(env, accountId, fileId);
  return held && recordOf(accountId, await held.shard.setFileExpiry(held.name, fileId, expiresAt));
}

/**
 * A page of the account's live files (not deleted, not past their expiry), newest first. The
 * order is (created_at, id) descending and the cursor is the last row's pair, so files stored
 * after the first page was read never shift the pages after it.
 */
export async function listFiles(env: FileIndexEnv, accountId: string, page: { limit: number; after: FileCursor | null }, now = Date.now()): Promise<FileRecord[]> {
  // Each shard's first page, merged: the page is the newest `limit` of them all.
  const pages = await Promise.all(everyShard(env, accountId).map(({ shard, name }) => shard.files(name, page.limit, page.after, now)));
  const rows = pages.flat().sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return rows.slice(0, page.limit).map((row) => fileRecord(accountId, row));
}

/**
 * The account's durable files: `ready` ones are what it stores (and pays for); `reserved` adds
 * pending uploads, which hold their declared size against the quota until completed or expired.
 */
export async function durableUsage(env: FileIndexEnv, accountId: string, scope: "ready" | "reserved"): Promise<DurableUsage> {
  const usages = await Promise.all(everyShard(env, accountId).map(({ shard, name }) => shard.durableUsage(name, scope)));
  return usages.reduce((total, usage) => ({ bytes: total.bytes + usage.bytes, files: total.files + usage.files }), { bytes: 0, files: 0 });
}
