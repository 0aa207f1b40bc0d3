import { pruneIdempotencyRecords } from "../idempotency/d1-idempotency-records.ts";

/** Drops the shared database's idempotency records past their 24 h retention (a shard prunes its own). */
export async function pruneExpiredRecords(db: D1Database, now: number): Promise<{ idempotency: number }> {
  return { idempotency: await pruneIdempotencyRecords(db, now) };
}
