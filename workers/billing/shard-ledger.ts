// Every statement on an account shard's `ledger` and `balance` (workers/shards/shard-schema.ts).
// The shard is the account's own database and runs one call at a time; the ledger's trigger moves
// the balance in the statement that records a row, and the balance's CHECK refuses an overdraw
// there, so a charge is recorded and paid for together or not at all.
import { and, asc, eq, sql } from "drizzle-orm";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardBalance, shardLedger as ledger } from "../shards/shard-schema.ts";
import type { Charge, ChargeOutcome } from "./charge.ts";

export type ShardChargeOutcome = ChargeOutcome | "insufficient_balance";

/** A ledger row as the shard keeps it, without its account (the shard is the account's). */
export type ShardLedgerRow = Omit<typeof ledger.$inferSelect, "fed">;

const BALANCE_CHECK = "balance_non_negative";

/** Records the charge once: a second charge under the same key is a no-op, an overdraw is refused with nothing recorded. */
export function recordCharge(db: ShardDb, charge: Omit<Charge, "accountId">, now: number): ShardChargeOutcome {
  if (!Number.isSafeInteger(charge.amountMicros)) throw new Error(`amount must be integer micros: ${charge.amountMicros}`);
  try {
    const row = db
      .insert(ledger)
      .values({ chargeKey: charge.chargeKey, operation: charge.operation, amountMicros: charge.amountMicros, units: charge.units ?? 1, createdAt: now })
      .onConflictDoNothing({ target: ledger.chargeKey })
      .returning({ seq: ledger.seq })
      .get();
    return row ? "charged" : "already_charged";
  } catch (error) {
    if (error instanceof Error && error.message.includes(BALANCE_CHECK)) return "insufficient_balance";
    throw error;
  }
}

export function balanceMicros(db: ShardDb): number {
  return db.select({ micros: shardBalance.micros }).from(shardBalance).get()!.micros;
}

/**
 * Rows the shared database recorded before the account had a shard, oldest first: they arrive
 * already fed, and the trigger rebuilds the balance they made (they were written in this order
 * under the same CHECK, so no prefix overdraws). A row the shard already holds is kept.
 */
export function importLedgerRows(db: ShardDb, rows: Omit<ShardLedgerRow, "seq">[]): void {
  for (const row of rows) db.insert(ledger).values({ ...row, fed: true }).onConflictDoNothing({ target: ledger.chargeKey }).run();
}

const rowColumns = {
  seq: ledger.seq,
  chargeKey: ledger.chargeKey,
  operation: ledger.operation,
  amountMicros: ledger.amountMicros,
  units: ledger.units,
  createdAt: ledger.createdAt,
};

/** Rows the shared report does not have yet, oldest first. */
export function unfedRows(db: ShardDb, limit: number): ShardLedgerRow[] {
  return db
    .select(rowColumns)
    .from(ledger)
    .where(eq(ledger.fed, false))
    .orderBy(asc(ledger.seq))
    .limit(limit)
    .all();
}

export function markFed(db: ShardDb, throughSeq: number): void {
  db.update(ledger).set({ fed: true }).where(and(eq(ledger.fed, false), sql`${ledger.seq} <= ${throughSeq}`)).run();
}

/** The newest row's place in the ledger; 0 for an empty ledger. */
export function lastSeq(db: ShardDb): number {
  return db.select({ seq: sql<number>`COALESCE(MAX(${ledger.seq}), 0)` }).from(ledger).get()!.seq;
}

/** Every row, oldest first: for the account's books and for tests. */
export function ledgerRows(db: ShardDb): ShardLedgerRow[] {
  return db.select(rowColumns).from(ledger).orderBy(asc(ledger.seq)).all();
}

