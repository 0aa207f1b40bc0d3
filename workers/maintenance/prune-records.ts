import { forgetDroppedDerivatives } from "../derivatives/d1-derivatives.ts";
import { pruneIdempotencyRecords } from "../idempotency/d1-idempotency-records.ts";

/**
 * Drops the shared database's idempotency records past their 24 h retention (a shard prunes its
 * own), and the derivative report's markers of drops a day old.
 */
export async function pruneExpiredRecords(db: D1Database, now: number): Promise<{ idempotency: number; droppedDerivatives: number }> {
  return { idempotency: await pruneIdempotencyRecords(db, now), droppedDerivatives: await forgetDroppedDerivatives(db, now) };
}
