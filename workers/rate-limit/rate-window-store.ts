// Every statement on `rate_windows`: one row per key per fixed window, counted with an upsert.
import { lt, sql } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { rateWindows } from "../db/schema.ts";

/** Counts one request in the key's window and returns the window's count so far. */
export async function countRequest(db: D1Database, keyId: string, windowStart: number): Promise<number> {
  const row = await orm(db)
    .insert(rateWindows)
    .values({ keyId, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateWindows.keyId, rateWindows.windowStart], set: { count: sql`${rateWindows.count} + 1` } })
    .returning({ count: rateWindows.count })
    .get();
  return row.count;
}

/** Drops windows that started before `before`; returns how many. */
export async function pruneRateWindows(db: D1Database, before: number): Promise<number> {
  const result = await orm(db).delete(rateWindows).where(lt(rateWindows.windowStart, before)).run();
  return result.meta.changes;
}
