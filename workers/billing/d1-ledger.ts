// Every statement on the shared database's `ledger` report and `pending_top_ups`, and on the
// `accounts` columns the ledger feed keeps (balance_micros, ledger_fed_seq). The shards are where
// money moves (./shard-ledger.ts); this side is read once by each shard's import, written by the
// ledger feed in batches, and read by the books (scripts/soak/reconcile.ts).
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { readInPages } from "../db/import-pages.ts";
import { orm } from "../db/orm.ts";
import { accounts, ledger, pendingTopUps } from "../db/schema.ts";
import type { ShardLedgerRow } from "./shard-ledger.ts";
import { fedJobProgress } from "../jobs/d1-jobs.ts";
import { fedDeliveryProgress } from "../webhooks/d1-deliveries.ts";
import { fedFileProgress } from "../files/d1-files.ts";
import { fedDerivativeProgress } from "../derivatives/d1-derivatives.ts";
import { fedOriginObjectProgress } from "../origins/d1-origins.ts";
import { inChunks } from "../db/in-chunks.ts";

/** The account's rows recorded before it had a shard, oldest first, read page by page. */
export function ledgerRowsBeforeShard(db: D1Database, accountId: string): Promise<Omit<ShardLedgerRow, "seq">[]> {
  return readInPages((after, limit) =>
    orm(db)
      .select({ cursor: ledger.id, chargeKey: ledger.chargeKey, operation: ledger.operation, amountMicros: ledger.amountMicros, units: ledger.units, createdAt: ledger.createdAt })
      .from(ledger)
      .where(and(eq(ledger.accountId, accountId), gt(ledger.id, after)))
      .orderBy(asc(ledger.id))
      .limit(limit)
      .all(),
  );
}

export interface PendingTopUp {
  reference: string;
  micros: number;
}

/** Records a top-up for the account's shard to apply; a second grant under the same reference is a no-op. */
export function grantTopUp(db: D1Database, accountId: string, topUp: PendingTopUp, now: number) {
  return orm(db).insert(pendingTopUps).values({ accountId, ...topUp, createdAt: now }).onConflictDoNothing();
}

export function pendingTopUpsOf(db: D1Database, accountId: string): Promise<PendingTopUp[]> {
  return orm(db)
    .select({ reference: pendingTopUps.reference, micros: pendingTopUps.micros })
    .from(pendingTopUps)
    .where(eq(pendingTopUps.accountId, accountId))
    .orderBy(asc(pendingTopUps.createdAt))
    .all();
}

/** Forgets top-ups the shard has recorded (under their charge keys, so applying one again is a no-op). */
export async function forgetTopUps(db: D1Database, accountId: string, references: string[]): Promise<void> {
  if (references.length === 0) return;
  await orm(db).delete(pendingTopUps).where(and(eq(pendingTopUps.accountId, accountId), inArray(pendingTopUps.reference, references))).run();
}

/** A fed ledger row, as the feed carries it. */
export interface FedRow {
  account_id: string;
  charge_key: string;
  operation: string;
  amount_micros: number;
  units: number;
  created_at: number;
}

/** The balance one of the account's shards (`branch`, 0 the first) had after its ledger row `seq`. */
export interface FedBalance {
  account_id: string;
  balance_micros: number;
  seq: number;
  branch: number;
}

// One statement for a whole batch of rows, and one for their accounts' balances: the rows travel
// as one JSON parameter, so a queue batch costs the shared database two statements however many
// charges it carries. A row already recorded (a redelivered message) is skipped, and a balance
// older than the one recorded is not written.
const INSERT_FED_ROWS = `INSERT INTO ledger (account_id, charge_key, operation, amount_micros, units, created_at)
  SELECT value ->> 'account_id', value ->> 'charge_key', value ->> 'operation', value ->> 'amount_micros', value ->> 'units', value ->> 'created_at'
  FROM json_each(?1) WHERE true
  ON CONFLICT (account_id, charge_key) DO NOTHING`;
const UPDATE_FED_BALANCES = `UPDATE accounts SET balance_micros = fed.value ->> 'balance_micros', ledger_fed_seq = fed.value ->> 'seq'
  FROM json_each(?1) AS fed
  WHERE accounts.id = fed.value ->> 'account_id' AND accounts.ledger_fed_seq < fed.value ->> 'seq'`;
const UPSERT_FED_BRANCH_BALANCES = `INSERT INTO account_branch_balances (account_id, branch, balance_micros, ledger_fed_seq)
  SELECT value ->> 'account_id', value ->> 'branch', value ->> 'balance_micros', value ->> 'seq' FROM json_each(?1) WHERE true
  ON CONFLICT (account_id, branch) DO UPDATE SET balance_micros = excluded.balance_micros, ledger_fed_seq = excluded.ledger_fed_seq
  WHERE account_branch_balances.ledger_fed_seq < excluded.ledger_fed_seq`;

// Rows one statement carries: about 150 bytes each, under D1's 2 MB for a bound value.
const ROWS_PER_STATEMENT = 5_000;

/** The statements that write a batch of fed rows and balances, for the feed's one batch (one transaction). */
export function fedLedgerStatements(db: D1Database, rows: FedRow[], balances: FedBalance[]): D1PreparedStatement[] {
  const statements = inChunks(rows, ROWS_PER_STATEMENT).map((chunk) => db.prepare(INSERT_FED_ROWS).bind(JSON.stringify(chunk)));
  const [first, branches] = [balances.filter((b) => b.branch === 0), balances.filter((b) => b.branch > 0)];
  if (first.length > 0) statements.push(db.prepare(UPDATE_FED_BALANCES).bind(JSON.stringify(first)));
  if (branches.length > 0) statements.push(db.prepare(UPSERT_FED_BRANCH_BALANCES).bind(JSON.stringify(branches)));
  return statements;
}

/** Every ledger row, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function ledgerRows(db: D1Database) {
  return orm(db)
    .select({ account_id: ledger.accountId, charge_key: ledger.chargeKey, operation: ledger.operation, amount_micros: ledger.amountMicros })
    .from(ledger);
}

// What the account's branches hold, fed: the account's balance is its first shard's and theirs.
const branchesHold = sql<number>`accounts.balance_micros + COALESCE((SELECT SUM(held.balance_micros) FROM account_branch_balances AS held WHERE held.account_id = accounts.id), 0)`.mapWith(Number);

/** The balance the ledger feed last carried for the account, its branches' included; null for an unknown account. */
export async function fedBalance(db: D1Database, accountId: string): Promise<number | null> {
  return (await orm(db).select({ micros: branchesHold }).from(accounts).where(eq(accounts.id, accountId)).get())?.micros ?? null;
}

/** Every account's fed balance, its branches' included, for the books: un-awaited, to join their batch. */
export function fedBalances(db: D1Database) {
  return orm(db).select({ id: accounts.id, balance_micros: branchesHold }).from(accounts);
}

/** How far the feed has come: the report's row count, the sum of its accounts' fed sequence numbers, and the derivatives', files', origin paths', jobs' and webhook attempts' (../derivatives/d1-derivatives.ts, ../files/d1-files.ts, ../origins/d1-origins.ts, ../jobs/d1-jobs.ts, ../webhooks/d1-deliveries.ts). */
export async function feedProgress(db: D1Database): Promise<string> {
  const [rows, seqs, derivatives, files, originObjects, jobs, attempts] = await orm(db).batch([
    orm(db).select({ n: sql<number>`COUNT(*)` }).from(ledger),
    orm(db).select({ n: sql<number>`COALESCE(SUM(${accounts.ledgerFedSeq}), 0)` }).from(accounts),
    fedDerivativeProgress(db),
    fedFileProgress(db),
    fedOriginObjectProgress(db),
    fedJobProgress(db),
    fedDeliveryProgress(db),
  ]);
  return [rows, seqs, derivatives, files, originObjects, jobs, attempts].map((progress) => progress[0]!.n).join("/");
}
