// Files: one D1 row per R2 object. A row is inserted `pending` before its object is written and
// flipped to `ready` only after the write succeeded, so a crash in between leaves a pending row
// (swept, object and all, when it expires) and never a ready row without an object. Deletion
// runs the other way: the row is marked deleted first, then the object is removed.
import { findAccountSettings } from "../accounts/account-store.ts";
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { newId } from "../crypto/ids.ts";
import { deleteDerivativesOf } from "../transform/derivative-store.ts";
import { resolveByteRange, type ByteRange } from "./byte-range.ts";
import { putObject, readObject } from "./file-objects.ts";

export type FileKind = "source" | "result";
export type FileStatus = "pending" | "ready" | "deleted";

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
  expires_at: number;
  deleted_at: number | null;
}

export interface NewFile {
  accountId: string;
  kind: FileKind;
  contentType: string;
  sizeBytes: number;
  filename?: string | null;
  expiresAt: number;
  sha256?: string;
}

export interface StoreFileInput {
  accountId: string;
  kind: FileKind;
  body: Uint8Array | ReadableStream;
  size: number;
  contentType: string;
  filename?: string | null;
  /** Defaults to now plus the account's retention. */
  expiresAt?: number;
  /** Hex SHA-256 of the body: R2 refuses the write when the bytes do not match it. */
  sha256?: string;
}

type FileEnv = Pick<Bindings, "DB" | "FILES">;

const COLUMNS = "id, account_id, kind, status, r2_key, filename, content_type, size_bytes, sha256, created_at, expires_at, deleted_at";

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
  };
  await db
    .prepare(`INSERT INTO files (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .bind(
      record.id,
      record.account_id,
      record.kind,
      record.status,
      record.r2_key,
      record.filename,
      record.content_type,
      record.size_bytes,
      record.sha256,
      record.created_at,
      record.expires_at,
      record.deleted_at,
    )
    .run();
  return record;
}

/** Flips a pending row to ready; null when it is no longer pending (already ready, or deleted). */
export async function markFileReady(db: D1Database, accountId: string, fileId: string): Promise<FileRecord | null> {
  return db
    .prepare(`UPDATE files SET status = 'ready' WHERE id = ? AND account_id = ? AND status = 'pending' RETURNING ${COLUMNS}`)
    .bind(fileId, accountId)
    .first<FileRecord>();
}

export async function storeFile(env: FileEnv, input: StoreFileInput): Promise<FileRecord> {
  if (input.body instanceof Uint8Array && input.body.byteLength !== input.size) {
    throw new RangeError(`storeFile: body has ${input.body.byteLength} bytes, size says ${input.size}`);
  }
  const { accountId, kind, contentType, filename, sha256 } = input;
  const expiresAt = input.expiresAt ?? Date.now() + (await retentionFor(env.DB, accountId));
  const pending = await insertPendingFile(env.DB, { accountId, kind, contentType, sizeBytes: input.size, filename, expiresAt, sha256 });
  try {
    await putObject(env.FILES, pending.r2_key, input, { httpMetadata: { contentType: input.contentType } });
  } catch (error) {
    await deleteFile(env, accountId, pending.id);
    throw error;
  }
  return (await markFileReady(env.DB, accountId, pending.id)) ?? findFile(env.DB, accountId, pending.id);
}

/** The file's row. Another account's id is 404 like a missing one; deleted or expired is 410. */
export async function findFile(db: D1Database, accountId: string, fileId: string, now = Date.now()): Promise<FileRecord> {
  const record = await db
    .prepare(`SELECT ${COLUMNS} FROM files WHERE id = ? AND account_id = ?`)
    .bind(fileId, accountId)
    .first<FileRecord>();
  if (!record) throw new ProblemError("not_found", `No file ${fileId} in this account.`);
  if (record.status === "deleted") {
    throw new ProblemError("gone", `File ${fileId} was deleted at ${new Date(record.deleted_at ?? record.expires_at).toISOString()}.`);
  }
  if (record.expires_at <= now) {
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
  const row = await db.prepare("SELECT account_id FROM files WHERE id = ?").bind(fileId).first<{ account_id: string }>();
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

/** Deletes a file of the account: the row first, then the object. Repeating it is harmless. */
export async function deleteFile(env: FileEnv, accountId: string, fileId: string, now = Date.now()): Promise<FileRecord> {
  const record = await env.DB.prepare(
    `UPDATE files SET status = 'deleted', deleted_at = COALESCE(deleted_at, ?) WHERE id = ? AND account_id = ? RETURNING ${COLUMNS}`,
  )
    .bind(now, fileId, accountId)
    .first<FileRecord>();
  if (!record) throw new ProblemError("not_found", `No file ${fileId} in this account.`);
  await env.FILES.delete(record.r2_key);
  await deleteDerivativesOf(env, [fileId]);
  return record;
}

const HOUR_MS = 3_600_000;

/** How long the account keeps its files, in milliseconds (accounts.retention_hours). */
export async function retentionFor(db: D1Database, accountId: string): Promise<number> {
  const settings = await findAccountSettings(db, accountId);
  if (!settings) throw new ProblemError("not_found", `No account ${accountId}.`);
  return settings.retention_hours * HOUR_MS;
}
