// Derivatives kept in R2, one D1 row each: the tier that survives edge-cache eviction without
// computing (and without billing, which the ledger guarantees on its own) again.
import type { Bindings } from "../env.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { putObject, type ObjectBody } from "../files/file-objects.ts";
import { findFileStatus } from "../files/file-store.ts";
import { deleteEdgeCache, edgeCacheKey } from "./edge-cache.ts";
import { deleteMezzaninesOf } from "./mezzanine-store.ts";

// Distinct derivatives a file may have: beyond this a URL-minting loop is refused, not computed.
export const MAX_DERIVATIVES_PER_FILE = 50;
// Cache API deletes per deleteDerivativesOf call: each is a subrequest, and the expiry sweep
// deletes hundreds of files at once. A deleted file's derivatives are purged from this data
// centre's cache up to this many; the rest, like every other data centre's copies, stay until
// the cache evicts them.
export const MAX_EDGE_CACHE_PURGES = 200;

export interface DerivativeIdentity {
  accountId: string;
  fileId: string;
  canonical: string;
  // "" unless the transform is f_auto.
  formatClass: string;
}

export interface DerivativeRecord {
  r2_key: string;
  etag: string;
  bytes: number;
  content_type: string;
}

type StoreEnv = Pick<Bindings, "DB" | "FILES">;

export async function derivativeKey(id: DerivativeIdentity): Promise<string> {
  const name = (await sha256Hex(`${id.canonical}\n${id.formatClass}`)).slice(0, 32);
  return `accounts/${id.accountId}/derivatives/${id.fileId}/${name}`;
}

export function findDerivative(db: D1Database, id: DerivativeIdentity): Promise<DerivativeRecord | null> {
  return db
    .prepare("SELECT r2_key, etag, bytes, content_type FROM derivatives WHERE account_id = ? AND file_id = ? AND canonical = ? AND format_class = ?")
    .bind(id.accountId, id.fileId, id.canonical, id.formatClass)
    .first<DerivativeRecord>();
}

export async function countDerivatives(db: D1Database, accountId: string, fileId: string): Promise<number> {
  const row = await db.prepare("SELECT COUNT(*) AS n FROM derivatives WHERE account_id = ? AND file_id = ?").bind(accountId, fileId).first<{ n: number }>();
  return row?.n ?? 0;
}

export interface StoredBody extends ObjectBody {
  contentType: string;
  etag: string;
}

/** The object first, then the row, so a row never points at a missing object. Returns the object's key. */
export async function storeDerivative(env: StoreEnv, id: DerivativeIdentity, stored: StoredBody, now = Date.now()): Promise<string> {
  const { size, contentType, etag } = stored;
  const r2Key = await derivativeKey(id);
  await putObject(env.FILES, r2Key, stored, { httpMetadata: { contentType } });
  await env.DB.prepare(
    `INSERT INTO derivatives (account_id, file_id, canonical, format_class, r2_key, etag, bytes, content_type, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, file_id, canonical, format_class) DO UPDATE SET r2_key = excluded.r2_key, etag = excluded.etag, bytes = excluded.bytes, content_type = excluded.content_type`,
  )
    .bind(id.accountId, id.fileId, id.canonical, id.formatClass, r2Key, etag, size, contentType, now)
    .run();
  return r2Key;
}

interface DeletedRow {
  r2_key: string;
  account_id: string;
  file_id: string;
  canonical: string;
  format_class: string;
}

/**
 * Forgets everything derived from the given files when they are deleted or expire: derivative
 * rows, objects and this data centre's edge-cache entries, and the files' mezzanines.
 */
export async function deleteDerivativesOf(env: StoreEnv, fileIds: string[]): Promise<number> {
  let deleted = 0;
  let purges = 0;
  for (let i = 0; i < fileIds.length; i += 99) {
    const chunk = fileIds.slice(i, i + 99);
    const { results } = await env.DB.prepare(
      `DELETE FROM derivatives WHERE file_id IN (${chunk.map(() => "?").join(", ")}) RETURNING r2_key, account_id, file_id, canonical, format_class`,
    )
      .bind(...chunk)
      .all<DeletedRow>();
    for (let j = 0; j < results.length; j += 1000) await env.FILES.delete(results.slice(j, j + 1000).map((row) => row.r2_key));
    for (const row of results) {
      if (purges >= MAX_EDGE_CACHE_PURGES) break;
      purges++;
      await deleteEdgeCache(edgeCacheKey({ accountId: row.account_id, fileId: row.file_id, canonical: row.canonical, formatClass: row.format_class }));
    }
    deleted += results.length;
  }
  await deleteMezzaninesOf(env.FILES, fileIds);
  return deleted;
}

/**
 * For a derivative stored (and put in the edge cache) while its file was being deleted: that
 * deletion found none of it to delete, so it goes now. True when the file is gone.
 */
export async function dropIfFileDeleted(env: StoreEnv, accountId: string, fileId: string): Promise<boolean> {
  const status = await findFileStatus(env.DB, accountId, fileId);
  if (status !== null && status !== "deleted") return false;
  await deleteDerivativesOf(env, [fileId]);
  return true;
}
