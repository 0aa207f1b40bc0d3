// What an account spent, by operation and by day, read from its shard's ledger
// (workers/billing/shard-ledger.ts): the shard holds every row the moment it is charged. Top-ups
// and transfers between the account's shards are ledger rows too, and are left out.
import { and, asc, gte, lt, notInArray, sql } from "drizzle-orm";
import type { Chargeable } from "../../contracts/pricing.ts";
import type { ShardDb } from "../shards/shard-db.ts";
import { MONEY_MOVEMENTS, type LedgerOperation } from "./ledger-operation.ts";
import { shardLedger as ledger } from "../shards/shard-schema.ts";

export interface UsageRow {
  /** An operation, or files.storage for durable storage's daily charges. */
  operation: Chargeable;
  count: number;
  micros: number;
}

export interface DailyUsageRow {
  day: string;
  count: number;
  micros: number;
}

export interface DailyOperationUsageRow extends UsageRow {
  day: string;
}

function spentBetween(from: number, to: number) {
  return and(notInArray(ledger.operation, [...MONEY_MOVEMENTS]), gte(ledger.createdAt, from), lt(ledger.createdAt, to));
}

const count = sql<number>`SUM(${ledger.units})`.mapWith(Number);
const micros = sql<number>`SUM(${ledger.amountMicros})`.mapWith(Number);
const day = sql<string>`strftime('%Y-%m-%d', ${ledger.createdAt} / 1000, 'unixepoch')`;

const movements: readonly LedgerOperation[] = MONEY_MOVEMENTS;
const spending = <Row extends { operation: LedgerOperation }>(rows: Row[]) => rows.filter((row): row is Row & { operation: Chargeable } => !movements.includes(row.operation));

export function usageByOperation(db: ShardDb, from: number, to: number): UsageRow[] {
  return spending(
    db.select({ operation: ledger.operation, count, micros }).from(ledger).where(spentBetween(from, to)).groupBy(ledger.operation).orderBy(asc(ledger.operation)).all(),
  );
}

export function usageByDay(db: ShardDb, from: number, to: number): DailyUsageRow[] {
  return db.select({ day, count, micros }).from(ledger).where(spentBetween(from, to)).groupBy(day).orderBy(asc(day)).all();
}

/** One row per UTC day and operation that had a charge: what a chart of daily spend by operation draws. */
export function usageByDayAndOperation(db: ShardDb, from: number, to: number): DailyOperationUsageRow[] {
  return spending(
    db
      .select({ day, operation: ledger.operation, count, micros })
      .from(ledger)
      .where(spentBetween(from, to))
      .groupBy(day, ledger.operation)
      .orderBy(asc(day), asc(ledger.operation))
      .all(),
  );
}

export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The account's usage between two instants, grouped as `/v1/usage` asks. */
export const usageReaders = { day: usageByDay, operation: usageByOperation, day_operation: usageByDayAndOperation };
export type UsageGrouping = keyof typeof usageReaders;
