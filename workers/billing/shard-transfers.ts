// Money moving between an account's own shards (./account-branches.ts), as ledger rows in each:
// the first shard allots part of its balance to a branch that ran short, and takes back what the
// branches hold when it runs short itself. Each half is a row under its own key
// (./charge-key.ts transferKeys) in the shard that records it, so the ledger's trigger and CHECK
// move and guard the balance as they do for a charge, and the feed carries both halves to the
// report, where they cancel out. The side that asks numbers each move; asked again with the same
// number (a reply that was lost), the other side answers with the amount it recorded then.
import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardLedger as ledger } from "../shards/shard-schema.ts";
import { ALLOTTED, transferKeys } from "./charge-key.ts";
import { recordCharge } from "./shard-ledger.ts";

const TRANSFER = "account.transfer";

/** Rows whose key starts with `prefix` (keys are ASCII; the unique index on the key serves the range). */
function keyedFrom(prefix: string) {
  const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return and(gte(ledger.chargeKey, prefix), lt(ledger.chargeKey, after));
}

function amountOf(db: ShardDb, chargeKey: string): number | null {
  return db.select({ micros: ledger.amountMicros }).from(ledger).where(eq(ledger.chargeKey, chargeKey)).get()?.micros ?? null;
}

function countFrom(db: ShardDb, prefix: string): number {
  return db.select({ n: count() }).from(ledger).where(keyedFrom(prefix)).get()!.n;
}

/** Records one half of a move: `micros` out of this shard's balance (negative: into it). */
function recordTransfer(db: ShardDb, chargeKey: string, micros: number, now: number) {
  return recordCharge(db, { chargeKey, operation: TRANSFER, amountMicros: micros }, now);
}

/** The first shard: what its `grant`th allotment to `branch` was; null for one not made. */
export function allotmentMade(db: ShardDb, branch: number, grant: number): number | null {
  return amountOf(db, `${transferKeys.allotted(branch)}${grant}`);
}

/** The first shard: allots `micros` to `branch` (refused as an overdraw, or kept as made before, by recordCharge). */
export function recordAllotment(db: ShardDb, branch: number, grant: number, micros: number, now: number) {
  return recordTransfer(db, `${transferKeys.allotted(branch)}${grant}`, micros, now);
}

/** The first shard: every branch it has allotted money to, the only ones that may hold any. */
export function allottedBranches(db: ShardDb): number[] {
  const start = ALLOTTED.length + 1;
  const branch = sql<number>`CAST(substr(${ledger.chargeKey}, ${start}, instr(substr(${ledger.chargeKey}, ${start}), ':') - 1) AS INTEGER)`.mapWith(Number);
  return db.selectDistinct({ branch }).from(ledger).where(keyedFrom(ALLOTTED)).all().map((row) => row.branch);
}

/** An allotment, by the number its branch asked for it under. */
export interface Allotment {
  grant: number;
  micros: number;
}

/** The first shard: its newest allotment to `branch`, the one a branch may not have recorded yet; null before any. */
export function lastAllotment(db: ShardDb, branch: number): Allotment | null {
  const prefix = transferKeys.allotted(branch);
  const row = db.select({ key: ledger.chargeKey, micros: ledger.amountMicros }).from(ledger).where(keyedFrom(prefix)).orderBy(desc(ledger.seq)).limit(1).get();
  return row ? { grant: Number(row.key.slice(prefix.length)), micros: row.micros } : null;
}

/** A branch: the number its next allotment is asked under. */
export function nextGrant(db: ShardDb, branch: number): number {
  return countFrom(db, transferKeys.received(branch)) + 1;
}

/** A branch: records an allotment it received (once, however often it is told). */
export function recordReceipt(db: ShardDb, branch: number, allotment: Allotment, now: number) {
  return recordTransfer(db, `${transferKeys.received(branch)}${allotment.grant}`, -allotment.micros, now);
}

/** The first shard: the number its next return from `branch` is asked under. */
export function nextRecall(db: ShardDb, branch: number): number {
  return countFrom(db, transferKeys.recovered(branch)) + 1;
}

/** A branch: what it gave back at the `recall`th return asked of it; null for one not made. */
export function returnMade(db: ShardDb, branch: number, recall: number): number | null {
  return amountOf(db, `${transferKeys.returned(branch)}${recall}`);
}

/** A branch: gives back `micros` at the `recall`th return asked of it. */
export function recordReturn(db: ShardDb, branch: number, recall: number, micros: number, now: number): void {
  recordTransfer(db, `${transferKeys.returned(branch)}${recall}`, micros, now);
}

/** The first shard: records what `branch` gave back at its `recall`th return (once). */
export function recordRecovery(db: ShardDb, branch: number, recall: number, micros: number, now: number): void {
  recordTransfer(db, `${transferKeys.recovered(branch)}${recall}`, -micros, now);
}
