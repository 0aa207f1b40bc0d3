import type { Chargeable } from "../../contracts/pricing.ts";

/**
 * What a ledger row records besides a charge: money coming in (a top-up) and money moving between
 * an account's own shards (an allotment and its return, ./shard-transfers.ts). Neither is spending.
 */
export const MONEY_MOVEMENTS = ["account.topup", "account.transfer"] as const;

/** What a ledger row records: an operation charged, or a movement of money. */
export type LedgerOperation = Chargeable | (typeof MONEY_MOVEMENTS)[number];
