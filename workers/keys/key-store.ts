// Every statement on `api_keys`. Authentication and transform URLs read a key together with its
// account's plan and transform setting in one join, since both run on every request they serve.
import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import { generateApiKey } from "../auth/api-key.ts";
import type { Scope } from "../auth/scopes.ts";
import { orm } from "../db/orm.ts";
import { accounts, apiKeys } from "../db/schema.ts";

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

const keyColumns = {
  id: apiKeys.id,
  account_id: apiKeys.accountId,
  name: apiKeys.name,
  display_prefix: apiKeys.displayPrefix,
  scopes: apiKeys.scopes,
  created_at: apiKeys.createdAt,
  last_used_at: apiKeys.lastUsedAt,
  revoked_at: apiKeys.revokedAt,
};

export async function listKeys(db: D1Database, accountId: string): Promise<KeyRecord[]> {
  const rows = await orm(db).select(keyColumns).from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)).all();
  return rows;
}

export async function findKey(db: D1Database, accountId: string, keyId: string): Promise<KeyRecord | null> {
  const row = await orm(db).select(keyColumns).from(apiKeys).where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId))).get();
  return row ?? null;
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
  await orm(db)
    .insert(apiKeys)
    .values({
      id: key.keyId,
      accountId,
      name: options.name ?? null,
      secretHash: key.secretHash,
      displayPrefix: key.displayPrefix,
      scopes,
      createdAt: now,
    })
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
  const handle = orm(db);
  const activeKeys = handle
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  const updated = await handle
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt), gt(activeKeys, 1)))
    .returning({ id: apiKeys.id })
    .get();
  if (updated) return "revoked";
  const key = await findKey(db, accountId, keyId);
  if (!key) return "not_found";
  return key.revoked_at !== null ? "already_revoked" : "last_active_key";
}

export interface PresentedKey {
  id: string;
  account_id: string;
  secret_hash: string;
  scopes: Scope[] | null;
  revoked_at: number | null;
  last_used_at: number | null;
  plan: "free" | "pro";
}

/** The key whose secret hashes to `secretHash`, revoked or not, with its account's plan. */
export async function findKeyBySecretHash(db: D1Database, secretHash: string): Promise<PresentedKey | null> {
  const row = await orm(db)
    .select({
      id: apiKeys.id,
      account_id: apiKeys.accountId,
      secret_hash: apiKeys.secretHash,
      scopes: apiKeys.scopes,
      revoked_at: apiKeys.revokedAt,
      last_used_at: apiKeys.lastUsedAt,
      plan: accounts.plan,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.secretHash, secretHash))
    .get();
  return row ?? null;
}

export async function recordKeyUse(db: D1Database, keyId: string, now: number): Promise<void> {
  await orm(db).update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId)).run();
}

export interface TransformKeyRow {
  account_id: string;
  scopes: Scope[] | null;
  plan: "free" | "pro";
  require_signed_transforms: boolean;
  signing_secret_sealed: string | null;
}

/** An active (not revoked) key with what serving its transform URLs needs. */
export async function findActiveTransformKey(db: D1Database, keyId: string): Promise<TransformKeyRow | null> {
  const row = await orm(db)
    .select({
      account_id: apiKeys.accountId,
      scopes: apiKeys.scopes,
      plan: accounts.plan,
      require_signed_transforms: accounts.requireSignedTransforms,
      signing_secret_sealed: apiKeys.signingSecretSealed,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .get();
  return row ?? null;
}

/** Stores the key's sealed signing secret; false when the account has no such key. */
export async function setSigningSecret(db: D1Database, accountId: string, keyId: string, sealed: string): Promise<boolean> {
  const updated = await orm(db)
    .update(apiKeys)
    .set({ signingSecretSealed: sealed })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)))
    .returning({ id: apiKeys.id })
    .get();
  return updated !== undefined;
}
