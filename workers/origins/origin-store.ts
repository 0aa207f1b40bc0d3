// The account's registered origins, as the routes and the transform path see them: kept by the
// account's file shard (./shard-origins.ts), reached here by the account id.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { newId } from "../crypto/ids.ts";
import { fileShard, type FileShards } from "../shards/shard-stub.ts";
import type { ShardOriginRow } from "./shard-origins.ts";

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

export function originRecordOf(accountId: string, row: ShardOriginRow): OriginRecord {
  return {
    id: row.id,
    account_id: accountId,
    name: row.name,
    kind: row.kind,
    base_url: row.baseUrl,
    s3_region: row.s3Region,
    s3_access_key_id: row.s3AccessKeyId,
    s3_secret_sealed: row.s3SecretSealed,
    created_at: row.createdAt,
  };
}

/** The 404 for a name the account has no origin of (another account's is the same 404). */
export function noOriginNamed(name: string): ProblemError {
  return new ProblemError("not_found", `No origin named ${name} in this account.`);
}

/** A name the account already uses is a 409: an origin is replaced by deleting it first, which drops what was cached from it. */
export async function createOrigin(env: FileShards, origin: NewOrigin, now = Date.now()): Promise<OriginRecord> {
  const row: ShardOriginRow = {
    id: newId("orig"),
    name: origin.name,
    kind: origin.kind,
    baseUrl: origin.base_url,
    s3Region: origin.s3_region,
    s3AccessKeyId: origin.s3_access_key_id,
    s3SecretSealed: origin.s3_secret_sealed,
    createdAt: now,
  };
  if (!(await fileShard(env, origin.account_id).createOrigin(origin.account_id, row))) {
    throw new ProblemError("conflict", `This account already has an origin named ${origin.name}; delete it first to register it again.`);
  }
  return originRecordOf(origin.account_id, row);
}

export async function listOrigins(env: FileShards, accountId: string): Promise<OriginRecord[]> {
  const rows = await fileShard(env, accountId).origins(accountId);
  return rows.map((row) => originRecordOf(accountId, row));
}

/** The account's origin by name; another account's origin is the same 404 as none. */
export async function findOrigin(env: FileShards, accountId: string, name: string): Promise<OriginRecord> {
  const row = await fileShard(env, accountId).origin(accountId, name);
  if (!row) throw noOriginNamed(name);
  return originRecordOf(accountId, row);
}

export async function deleteOrigin(env: FileShards, accountId: string, name: string): Promise<OriginRecord> {
  const row = await fileShard(env, accountId).deleteOrigin(accountId, name);
  if (!row) throw noOriginNamed(name);
  return originRecordOf(accountId, row);
}
