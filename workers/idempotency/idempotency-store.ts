import { sha256Hex } from "../../contracts/crypto/sha256.ts";

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
// A synchronous request cannot run longer than this; a "running" record older than it was
// left by a crashed request and may be claimed again.
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
// D1 rows are capped near 2 MB; larger stored responses (base64 outputs) live in R2.
const INLINE_BODY_LIMIT = 512 * 1024;
const R2_BODY_MARKER = "r2:";

export interface IdempotencyScope {
  accountId: string;
  keyId: string;
  idempotencyKey: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Existing =
  | { state: "running"; fingerprint: string }
  | { state: "done"; fingerprint: string; response: StoredResponse };

interface Row {
  fingerprint: string;
  state: "running" | "done";
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
}

export function requestFingerprint(method: string, path: string, body: string): Promise<string> {
  return sha256Hex(`${method} ${path}\n${body}`);
}

const WHERE_SCOPE = "account_id = ?1 AND key_id = ?2 AND idempotency_key = ?3";

function scopeParams(scope: IdempotencyScope): [string, string, string] {
  return [scope.accountId, scope.keyId, scope.idempotencyKey];
}

async function bodyObjectKey(scope: IdempotencyScope): Promise<string> {
  return `idempotency/${scope.accountId}/${await sha256Hex(`${scope.keyId}\n${scope.idempotencyKey}`)}`;
}

/** Inserts a running record; false when a live record already holds the key. */
export async function claim(db: D1Database, scope: IdempotencyScope, fingerprint: string, now: number): Promise<boolean> {
  const row = await db
    .prepare(
      `INSERT INTO idempotency_records
         (account_id, key_id, idempotency_key, fingerprint, state, created_at, expires_at)
       VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6)
       ON CONFLICT (account_id, key_id, idempotency_key) DO UPDATE SET
         fingerprint = excluded.fingerprint, state = 'running', response_status = NULL,
         response_headers = NULL, response_body = NULL, created_at = excluded.created_at,
         expires_at = excluded.expires_at
       WHERE idempotency_records.expires_at <= ?5
          OR (idempotency_records.state = 'running' AND idempotency_records.created_at <= ?7)
       RETURNING created_at`,
    )
    .bind(...scopeParams(scope), fingerprint, now, now + IDEMPOTENCY_RETENTION_MS, now - ABANDONED_AFTER_MS)
    .first();
  return row !== null;
}

export async function loadExisting(db: D1Database, files: R2Bucket, scope: IdempotencyScope): Promise<Existing | null> {
  const row = await db
    .prepare(
      `SELECT fingerprint, state, response_status, response_headers, response_body
       FROM idempotency_records WHERE ${WHERE_SCOPE}`,
    )
    .bind(...scopeParams(scope))
    .first<Row>();
  if (!row) return null;
  if (row.state === "running") return { state: "running", fingerprint: row.fingerprint };
  let body = row.response_body ?? "";
  if (body.startsWith(R2_BODY_MARKER)) {
    const object = await files.get(body.slice(R2_BODY_MARKER.length));
    body = object ? await object.text() : "";
  }
  return {
    state: "done",
    fingerprint: row.fingerprint,
    response: {
      status: row.response_status ?? 200,
      headers: row.response_headers ? (JSON.parse(row.response_headers) as Record<string, string>) : {},
      body,
    },
  };
}

export async function complete(
  db: D1Database,
  files: R2Bucket,
  scope: IdempotencyScope,
  response: StoredResponse,
): Promise<void> {
  let stored = response.body;
  if (stored.length > INLINE_BODY_LIMIT) {
    const key = await bodyObjectKey(scope);
    await files.put(key, stored);
    stored = R2_BODY_MARKER + key;
  }
  await db
    .prepare(
      `UPDATE idempotency_records SET state = 'done', response_status = ?4, response_headers = ?5,
         response_body = ?6 WHERE ${WHERE_SCOPE}`,
    )
    .bind(...scopeParams(scope), response.status, JSON.stringify(response.headers), stored)
    .run();
}

/** Forgets a claim whose request failed on our side, so the client's retry runs it again. */
export async function release(db: D1Database, scope: IdempotencyScope): Promise<void> {
  await db.prepare(`DELETE FROM idempotency_records WHERE ${WHERE_SCOPE}`).bind(...scopeParams(scope)).run();
}
