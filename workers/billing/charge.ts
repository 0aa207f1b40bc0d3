import type { LedgerOperation } from "./ledger-operation.ts";
import { topUpChargeKey } from "./charge-key.ts";

export interface Charge {
  accountId: string;
  /** What is being paid for, built by ./charge-key.ts: unique per account. */
  chargeKey: string;
  operation: LedgerOperation;
  amountMicros: number;
  units?: number;
}

export type ChargeOutcome = "charged" | "already_charged";

/** A top-up's ledger row: a negative charge, credited by the ledger's trigger. */
export function topUpCharge(accountId: string, micros: number, reference: string): Charge {
  return { accountId, chargeKey: topUpChargeKey(reference), operation: "account.topup", amountMicros: -micros };
}
