// Every statement on the shared database's `idempotency_records`, the table records were kept in
// before each account's moved to its shard: a shard imports its account's live records from it
// once (workers/shards/account-shard.ts), and the cron sweep prunes it until its last record
// expires. Nothing writes a new record here.
import { and, eq, gt, lte } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { idempotencyRecords } from "../db/schema.ts";
import type { IdempotencyRecord } from "./shard-idempotency-records.ts";

/** The account's records that have not expired, in the shard's shape. */
export async function liveD1Records(db: D1Database, accountId: string, now: number): Promise<IdempotencyRecord[]> {
  return orm(db)
    .select({
      keyId: idempotencyRecords.keyId,
      idempotencyKey: idempotencyRecords.idempotencyKey,
      fingerprint: idempotencyRecords.fingerprint,
      state: idempotencyRecords.state,
      responseStatus: idempotencyRecords.responseStatus,
      responseHeaders: idempotencyRecords.responseHeaders,
      responseBody: idempotencyRecords.responseBody,
      createdAt: idempotencyRecords.createdAt,
      expiresAt: idempotencyRecords.expiresAt,
    })
    .from(idempotencyRecords)
    .where(and(eq(idempotencyRecords.accountId, accountId), gt(idempotencyRecords.expiresAt, now)))
    .all();
}

/** Drops records past their retention; returns how many. */
export async function pruneIdempotencyRecords(db: D1Database, now: number): Promise<number> {
  const result = await orm(db).delete(idempotencyRecords).where(lte(idempotencyRecords.expiresAt, now)).run();
  return result.meta.changes;
}
