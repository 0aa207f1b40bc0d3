import { and, eq, lte, or, sql } from "drizzle-orm";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { orm } from "../db/orm.ts";
import { idempotencyRecords } from "../db/schema.ts";

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

export function requestFingerprint(method: string, path: string, body: string): Promise<string> {
  return sha256Hex(`${method} ${path}\n${body}`);
}

function inScope(scope: IdempotencyScope) {
  return and(
    eq(idempotencyRecords.accountId, scope.accountId),
    eq(idempotencyRecords.keyId, scope.keyId),
    eq(idempotencyRecords.idempotencyKey, scope.idempotencyKey),
  );
}

/** Where a stored response too large for its row is kept. */
export async function bodyObjectKey(scope: IdempotencyScope): Promise<string> {
  return `idempotency/${scope.accountId}/${await sha256Hex(`${scope.keyId}\n${scope.idempotencyKey}`)}`;
}

/** Inserts a running record; false when a live record already holds the key. */
export async function claim(db: D1Database, scope: IdempotencyScope, fingerprint: string, now: number): Promise<boolean> {
  // An existing record is taken over only when it expired or its request was abandoned.
  const row = await orm(db)
    .insert(idempotencyRecords)
    .values({ ...scope, fingerprint, state: "running", createdAt: now, expiresAt: now + IDEMPOTENCY_RETENTION_MS })
    .onConflictDoUpdate({
      target: [idempotencyRecords.accountId, idempotencyRecords.keyId, idempotencyRecords.idempotencyKey],
      set: {
        fingerprint: sql`excluded.fingerprint`,
        state: "running",
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: or(
        lte(idempotencyRecords.expiresAt, now),
        and(eq(idempotencyRecords.state, "running"), lte(idempotencyRecords.createdAt, now - ABANDONED_AFTER_MS)),
      ),
    })
    .returning({ createdAt: idempotencyRecords.createdAt })
    .get();
  return row !== undefined;
}

export async function loadExisting(db: D1Database, files: R2Bucket, scope: IdempotencyScope): Promise<Existing | null> {
  const row = await orm(db)
    .select({
      fingerprint: idempotencyRecords.fingerprint,
      state: idempotencyRecords.state,
      responseStatus: idempotencyRecords.responseStatus,
      responseHeaders: idempotencyRecords.responseHeaders,
      responseBody: idempotencyRecords.responseBody,
    })
    .from(idempotencyRecords)
    .where(inScope(scope))
    .get();
  if (!row) return null;
  if (row.state === "running") return { state: "running", fingerprint: row.fingerprint };
  let body = row.responseBody ?? "";
  if (body.startsWith(R2_BODY_MARKER)) {
    const object = await files.get(body.slice(R2_BODY_MARKER.length));
    body = object ? await object.text() : "";
  }
  return {
    state: "done",
    fingerprint: row.fingerprint,
    response: {
      status: row.responseStatus ?? 200,
      headers: row.responseHeaders ?? {},
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
  await orm(db)
    .update(idempotencyRecords)
    .set({ state: "done", responseStatus: response.status, responseHeaders: response.headers, responseBody: stored })
    .where(inScope(scope))
    .run();
}

/** Forgets a claim whose request failed on our side, so the client's retry runs it again. */
export async function release(db: D1Database, scope: IdempotencyScope): Promise<void> {
  await orm(db).delete(idempotencyRecords).where(inScope(scope)).run();
}

/** Drops records past their retention; returns how many. */
export async function pruneIdempotencyRecords(db: D1Database, now: number): Promise<number> {
  const result = await orm(db).delete(idempotencyRecords).where(lte(idempotencyRecords.expiresAt, now)).run();
  return result.meta.changes;
}

/** Every record's scope, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function idempotencyScopes(db: D1Database) {
  return orm(db)
    .select({ accountId: idempotencyRecords.accountId, keyId: idempotencyRecords.keyId, idempotencyKey: idempotencyRecords.idempotencyKey })
    .from(idempotencyRecords);
}
