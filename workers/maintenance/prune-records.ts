import { pruneIdempotencyRecords } from "../idempotency/idempotency-store.ts";
import { pruneRateWindows } from "../rate-limit/rate-window-store.ts";

const RATE_WINDOW_KEEP_MS = 60 * 60_000;

/** Drops idempotency records past their 24 h retention and rate-limit windows long closed. */
export async function pruneExpiredRecords(db: D1Database, now: number): Promise<{ idempotency: number; rateWindows: number }> {
  return {
    idempotency: await pruneIdempotencyRecords(db, now),
    rateWindows: await pruneRateWindows(db, now - RATE_WINDOW_KEEP_MS),
  };
}
