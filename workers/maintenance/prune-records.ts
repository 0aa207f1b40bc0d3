import { pruneIdempotencyRecords } from "../idempotency/idempotency-store.ts";

/** Drops idempotency records past their 24 h retention. */
export async function pruneExpiredRecords(db: D1Database, now: number): Promise<{ idempotency: number }> {
  return { idempotency: await pruneIdempotencyRecords(db, now) };
}
