import type { Operation } from "../../contracts/pricing.ts";

export interface UsageRow {
  operation: Operation;
  count: number;
  micros: number;
}

const USAGE_FILTER = "account_id = ? AND operation != 'account.topup' AND created_at >= ? AND created_at < ?";

export async function usageByOperation(db: D1Database, accountId: string, from: number, to: number): Promise<UsageRow[]> {
  const { results } = await db
    .prepare(
      `SELECT operation, SUM(units) AS count, SUM(amount_micros) AS micros FROM ledger
       WHERE ${USAGE_FILTER} GROUP BY operation ORDER BY operation`,
    )
    .bind(accountId, from, to)
    .all<UsageRow>();
  return results;
}

export interface DailyUsageRow {
  day: string;
  count: number;
  micros: number;
}

export async function usageByDay(db: D1Database, accountId: string, from: number, to: number): Promise<DailyUsageRow[]> {
  const { results } = await db
    .prepare(
      `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, SUM(units) AS count,
              SUM(amount_micros) AS micros
       FROM ledger WHERE ${USAGE_FILTER} GROUP BY day ORDER BY day`,
    )
    .bind(accountId, from, to)
    .all<DailyUsageRow>();
  return results;
}

export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
