// The ledger's reads: what an account spent, by operation and by day. Top-ups are ledger rows
// too (negative amounts) and are left out.
import { and, asc, gte, lt, ne, eq, sql } from "drizzle-orm";
import type { Chargeable } from "../../contracts/pricing.ts";
import { orm } from "../db/orm.ts";
import { ledger } from "../db/schema.ts";

export interface UsageRow {
  /** An operation, or files.storage for durable storage's daily charges. */
  operation: Chargeable;
  count: number;
  micros: number;
}

function spentBetween(accountId: string, from: number, to: number) {
  return and(eq(ledger.accountId, accountId), ne(ledger.operation, "account.topup"), gte(ledger.createdAt, from), lt(ledger.createdAt, to));
}

const count = sql<number>`SUM(${ledger.units})`.mapWith(Number);
const micros = sql<number>`SUM(${ledger.amountMicros})`.mapWith(Number);

export async function usageByOperation(db: D1Database, accountId: string, from: number, to: number): Promise<UsageRow[]> {
  const rows = await orm(db)
    .select({ operation: ledger.operation, count, micros })
    .from(ledger)
    .where(spentBetween(accountId, from, to))
    .groupBy(ledger.operation)
    .orderBy(asc(ledger.operation))
    .all();
  return rows.filter((row): row is UsageRow => row.operation !== "account.topup");
}

export interface DailyUsageRow {
  day: string;
  count: number;
  micros: number;
}

const day = sql<string>`strftime('%Y-%m-%d', ${ledger.createdAt} / 1000, 'unixepoch')`;

export async function usageByDay(db: D1Database, accountId: string, from: number, to: number): Promise<DailyUsageRow[]> {
  return orm(db)
    .select({ day, count, micros })
    .from(ledger)
    .where(spentBetween(accountId, from, to))
    .groupBy(day)
    .orderBy(asc(day))
    .all();
}

export interface DailyOperationUsageRow extends UsageRow {
  day: string;
}

/** One row per UTC day and operation that had a charge: what a chart of daily spend by operation draws. */
export async function usageByDayAndOperation(db: D1Database, accountId: string, from: number, to: number): Promise<DailyOperationUsageRow[]> {
  const rows = await orm(db)
    .select({ day, operation: ledger.operation, count, micros })
    .from(ledger)
    .where(spentBetween(accountId, from, to))
    .groupBy(day, ledger.operation)
    .orderBy(asc(day), asc(ledger.operation))
    .all();
  return rows.filter((row): row is DailyOperationUsageRow => row.operation !== "account.topup");
}

export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
