// Every statement on `storage_charges`: one row per account and UTC day of durable storage. A row
// whose charged_at is null is owed: the balance did not cover it when last tried.
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { storageCharges } from "../db/schema.ts";
import { inChunks } from "../db/in-chunks.ts";

export interface StorageDay {
  accountId: string;
  day: string;
  durableBytes: number;
  amountMicros: number;
}

// D1 binds at most 100 parameters per statement; a row binds five.
const ROWS_PER_INSERT = 20;

/** Records each account's day once: a later sweep of the same day keeps the first one's bytes and price. */
export async function recordStorageDays(db: D1Database, days: StorageDay[], now: number): Promise<void> {
  const handle = orm(db);
  for (const chunk of inChunks(days, ROWS_PER_INSERT)) {
    const rows = chunk.map((day) => ({ ...day, createdAt: now }));
    await handle.insert(storageCharges).values(rows).onConflictDoNothing().run();
  }
}

/** Days not charged yet in (day, account) order after `after`, at most `limit`. */
export async function unchargedStorageDays(db: D1Database, after: { day: string; accountId: string } | null, limit: number): Promise<StorageDay[]> {
  return orm(db)
    .select({ accountId: storageCharges.accountId, day: storageCharges.day, durableBytes: storageCharges.durableBytes, amountMicros: storageCharges.amountMicros })
    .from(storageCharges)
    .where(
      and(
        isNull(storageCharges.chargedAt),
        after ? or(gt(storageCharges.day, after.day), and(eq(storageCharges.day, after.day), gt(storageCharges.accountId, after.accountId))) : undefined,
      ),
    )
    .orderBy(asc(storageCharges.day), asc(storageCharges.accountId))
    .limit(limit)
    .all();
}

export async function markStorageDayCharged(db: D1Database, accountId: string, day: string, now: number): Promise<void> {
  await orm(db)
    .update(storageCharges)
    .set({ chargedAt: now })
    .where(and(eq(storageCharges.accountId, accountId), eq(storageCharges.day, day), isNull(storageCharges.chargedAt)))
    .run();
}

/** What the account owes for storage days the balance did not cover; 0 when nothing is owed. */
export async function owedStorageMicros(db: D1Database, accountId: string): Promise<number> {
  const row = await orm(db)
    .select({ micros: sql<number>`COALESCE(SUM(${storageCharges.amountMicros}), 0)`.mapWith(Number) })
    .from(storageCharges)
    .where(and(eq(storageCharges.accountId, accountId), isNull(storageCharges.chargedAt)))
    .get();
  return row?.micros ?? 0;
}
