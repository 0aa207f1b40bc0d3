// Derivatives kept in R2, one D1 row each: the tier that survives edge-cache eviction without
// computing (and without billing, which the ledger guarantees on its own) again.
import type { Bindings } from "../env.ts";
import { sha256Hex } from "../crypto/sha256.ts";

// Distinct derivatives a file may have: beyond this a URL-minting loop is refused, not computed.
export const MAX_DERIVATIVES_PER_FILE = 50;

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

/** The object first, then the row, so a row never points at a missing object. */
export async function storeDerivative(env: StoreEnv, id: DerivativeIdentity, body: Uint8Array, contentType: string, etag: string, now = Date.now()): Promise<void> {
  const r2Key = await derivativeKey(id);
  await env.FILES.put(r2Key, body, { httpMetadata: { contentType } });
  await env.DB.prepare(
    `INSERT INTO derivatives (account_id, file_id, canonical, format_class, r2_key, etag, bytes, content_type, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, file_id, canonical, format_class) DO UPDATE SET r2_key = excluded.r2_key, etag = excluded.etag, bytes = excluded.bytes, content_type = excluded.content_type`,
  )
    .bind(id.accountId, id.fileId, id.canonical, id.formatClass, r2Key, etag, body.byteLength, contentType, now)
    .run();
}

/** Forgets every derivative of the given files, rows and R2 objects, when the files are deleted. */
export async function deleteDerivativesOf(env: StoreEnv, fileIds: string[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < fileIds.length; i += 99) {
    const chunk = fileIds.slice(i, i + 99);
    const { results } = await env.DB.prepare(`DELETE FROM derivatives WHERE file_id IN (${chunk.map(() => "?").join(", ")}) RETURNING r2_key`)
      .bind(...chunk)
      .all<{ r2_key: string }>();
    for (let j = 0; j < results.length; j += 1000) await env.FILES.delete(results.slice(j, j + 1000).map((row) => row.r2_key));
    deleted += results.length;
  }
  return deleted;
}
