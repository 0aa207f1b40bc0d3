import { generateApiKey } from "../auth/api-key.ts";
import type { Scope } from "../auth/scopes.ts";

export interface KeyRecord {
  id: string;
  account_id: string;
  name: string | null;
  display_prefix: string;
  scopes: Scope[] | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const COLUMNS = "id, account_id, name, display_prefix, scopes, created_at, last_used_at, revoked_at";

function fromRow(row: Omit<KeyRecord, "scopes"> & { scopes: string | null }): KeyRecord {
  return { ...row, scopes: row.scopes ? (JSON.parse(row.scopes) as Scope[]) : null };
}

export async function listKeys(db: D1Database, accountId: string): Promise<KeyRecord[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at, id`)
    .bind(accountId)
    .all<Omit<KeyRecord, "scopes"> & { scopes: string | null }>();
  return results.map(fromRow);
}

export async function findKey(db: D1Database, accountId: string, keyId: string): Promise<KeyRecord | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE account_id = ? AND id = ?`)
    .bind(accountId, keyId)
    .first<Omit<KeyRecord, "scopes"> & { scopes: string | null }>();
  return row ? fromRow(row) : null;
}

/** Creates a key; the secret is returned here once and only its hash is stored. */
export async function createKey(
  db: D1Database,
  accountId: string,
  options: { name?: string | null; scopes?: Scope[] | null },
  now = Date.now(),
): Promise<{ record: KeyRecord; secret: string }> {
  const key = await generateApiKey();
  const scopes = options.scopes && options.scopes.length > 0 ? [...new Set(options.scopes)].sort() : null;
  await db
    .prepare(
      `INSERT INTO api_keys (id, account_id, name, secret_hash, display_prefix, scopes, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(key.keyId, accountId, options.name ?? null, key.secretHash, key.displayPrefix, scopes ? JSON.stringify(scopes) : null, now)
    .run();
  return {
    secret: key.secret,
    record: {
      id: key.keyId,
      account_id: accountId,
      name: options.name ?? null,
      display_prefix: key.displayPrefix,
      scopes,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    },
  };
}

export type RevokeOutcome = "revoked" | "already_revoked" | "last_active_key" | "not_found";

/** Revokes in one statement that also refuses to leave the account without an active key. */
export async function revokeKey(db: D1Database, accountId: string, keyId: string, now = Date.now()): Promise<RevokeOutcome> {
  const updated = await db
    .prepare(
      `UPDATE api_keys SET revoked_at = ?3 WHERE account_id = ?1 AND id = ?2 AND revoked_at IS NULL
         AND (SELECT COUNT(*) FROM api_keys WHERE account_id = ?1 AND revoked_at IS NULL) > 1
       RETURNING id`,
    )
    .bind(accountId, keyId, now)
    .first();
  if (updated) return "revoked";
  const key = await findKey(db, accountId, keyId);
  if (!key) return "not_found";
  return key.revoked_at !== null ? "already_revoked" : "last_active_key";
}
