import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Chargeable } from "../../contracts/pricing.ts";
import { accountBalance } from "../accounts/account-store.ts";
import { orm } from "../db/orm.ts";
import { ledger } from "../db/schema.ts";
import { topUpChargeKey } from "./charge-key.ts";

export interface Charge {
  accountId: string;
  /** What is being paid for, built by ./charge-key.ts: unique per account. */
  chargeKey: string;
  operation: Chargeable | "account.topup";
  amountMicros: number;
  units?: number;
}

export type ChargeOutcome = "charged" | "already_charged";

/**
 * Records a charge and debits the balance in one statement. The unique index on
 * (account_id, charge_key) turns a second attempt into a no-op, and the balance CHECK turns an
 * overdraw into a 402 with nothing recorded: both hold under concurrent requests.
 */
export async function chargeOnce(db: D1Database, charge: Charge, now = Date.now()): Promise<ChargeOutcome> {
  try {
    const row = await ledgerInsert(db, charge, now).get();
    return row ? "charged" : "already_charged";
  } catch (error) {
    if (violates(error, "balance_non_negative")) {
      throw new ProblemError(
        "insufficient_balance",
        `This operation costs ${charge.amountMicros} micros and the balance does not cover it.`,
        { extensions: { required_micros: charge.amountMicros } },
      );
    }
    throw error;
  }
}

/** The one ledger insert, un-awaited so it can join a batch (an account's opening balance); a second insert under the same key is a no-op. */
export function ledgerInsert(db: D1Database, charge: Charge, now: number) {
  if (!Number.isSafeInteger(charge.amountMicros)) throw new Error(`amount must be integer micros: ${charge.amountMicros}`);
  return orm(db)
    .insert(ledger)
    .values({
      accountId: charge.accountId,
      chargeKey: charge.chargeKey,
      operation: charge.operation,
      amountMicros: charge.amountMicros,
      units: charge.units ?? 1,
      createdAt: now,
    })
    .onConflictDoNothing({ target: [ledger.accountId, ledger.chargeKey] })
    .returning({ id: ledger.id });
}

/** A top-up's ledger row: a negative charge, credited by the ledger's trigger. */
export function topUpCharge(accountId: string, micros: number, reference: string): Charge {
  return { accountId, chargeKey: topUpChargeKey(reference), operation: "account.topup", amountMicros: -micros };
}

/** Whether `error` (or what it wraps: drizzle wraps D1's errors) names the constraint. */
function violates(error: unknown, constraint: string): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "").includes(constraint)) return true;
  }
  return false;
}

/** A 402 before any work starts, so a client without funds does not wait for a result it cannot get. */
export async function requireBalance(db: D1Database, accountId: string, micros: number): Promise<void> {
  if (micros <= 0) return;
  const balance = (await accountBalance(db, accountId)) ?? 0;
  if (balance < micros) {
    throw new ProblemError(
      "insufficient_balance",
      `This operation can cost up to ${micros} micros; the balance is ${balance}.`,
      { extensions: { required_micros: micros, balance_micros: balance } },
    );
  }
}

export function topUp(db: D1Database, accountId: string, micros: number, reference: string): Promise<ChargeOutcome> {
  return chargeOnce(db, topUpCharge(accountId, micros, reference));
}

/** Every ledger row, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function ledgerRows(db: D1Database) {
  return orm(db)
    .select({ account_id: ledger.accountId, charge_key: ledger.chargeKey, operation: ledger.operation, amount_micros: ledger.amountMicros })
    .from(ledger);
}
