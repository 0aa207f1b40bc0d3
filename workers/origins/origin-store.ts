// Registered origins: the only place the `origins` table's SQL lives.
import { and, asc, eq } from "drizzle-orm";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { newId } from "../crypto/ids.ts";
import { orm } from "../db/orm.ts";
import { origins } from "../db/schema.ts";

export interface OriginRecord {
  id: string;
  account_id: string;
  name: string;
  kind: "http" | "s3";
  base_url: string;
  s3_region: string | null;
  s3_access_key_id: string | null;
  s3_secret_sealed: string | null;
  created_at: number;
}

export type NewOrigin = Omit<OriginRecord, "id" | "created_at">;

const columns = {
  id: origins.id,
  account_id: origins.accountId,
  name: origins.name,
  kind: origins.kind,
  base_url: origins.baseUrl,
  s3_region: origins.s3Region,
  s3_access_key_id: origins.s3AccessKeyId,
  s3_secret_sealed: origins.s3SecretSealed,
  created_at: origins.createdAt,
};

/** A name the account already uses is a 409: an origin is replaced by deleting it first, which drops what was cached from it. */
export async function createOrigin(db: D1Database, origin: NewOrigin, now = Date.now()): Promise<OriginRecord> {
  const record: OriginRecord = { ...origin, id: newId("orig"), created_at: now };
  const inserted = await orm(db)
    .insert(origins)
    .values({
      id: record.id,
      accountId: record.account_id,
      name: record.name,
      kind: record.kind,
      baseUrl: record.base_url,
      s3Region: record.s3_region,
      s3AccessKeyId: record.s3_access_key_id,
      s3SecretSealed: record.s3_secret_sealed,
      createdAt: record.created_at,
    })
    .onConflictDoNothing()
    .returning({ id: origins.id })
    .get();
  if (!inserted) throw new ProblemError("conflict", `This account already has an origin named ${origin.name}; delete it first to register it again.`);
  return record;
}

export function listOrigins(db: D1Database, accountId: string): Promise<OriginRecord[]> {
  return orm(db).select(columns).from(origins).where(eq(origins.accountId, accountId)).orderBy(asc(origins.name)).all();
}

/** The account's origin by name; another account's origin is the same 404 as none. */
export async function findOrigin(db: D1Database, accountId: string, name: string): Promise<OriginRecord> {
  const record = await orm(db).select(columns).from(origins).where(and(eq(origins.accountId, accountId), eq(origins.name, name))).get();
  if (!record) throw new ProblemError("not_found", `No origin named ${name} in this account.`);
  return record;
}

/** The origin with this id, whatever its account; null when it is gone. */
export async function findOriginById(db: D1Database, originId: string): Promise<OriginRecord | null> {
  return (await orm(db).select(columns).from(origins).where(eq(origins.id, originId)).get()) ?? null;
}

export async function deleteOrigin(db: D1Database, accountId: string, name: string): Promise<OriginRecord> {
  const record = await orm(db).delete(origins).where(and(eq(origins.accountId, accountId), eq(origins.name, name))).returning(columns).get();
  if (!record) throw new ProblemError("not_found", `No origin named ${name} in this account.`);
  return record;
}
