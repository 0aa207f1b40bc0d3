const RATE_WINDOW_KEEP_MS = 60 * 60_000;

/** Drops idempotency records past their 24 h retention and rate-limit windows long closed. */
export async function pruneExpiredRecords(db: D1Database, now: number): Promise<{ idempotency: number; rateWindows: number }> {
  const [idempotency, rateWindows] = await db.batch([
    db.prepare("DELETE FROM idempotency_records WHERE expires_at <= ?").bind(now),
    db.prepare("DELETE FROM rate_windows WHERE window_start < ?").bind(now - RATE_WINDOW_KEEP_MS),
  ]);
  return { idempotency: idempotency!.meta.changes, rateWindows: rateWindows!.meta.changes };
}
