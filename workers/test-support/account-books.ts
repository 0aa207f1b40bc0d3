// An account's money as its shard holds it (workers/shards/account-shard.ts), for tests that
// check what a call charged.
import { env } from "cloudflare:test";
import { currentBalance } from "../billing/charge-once.ts";
import { grantTopUp } from "../billing/d1-ledger.ts";
import type { ShardLedgerRow } from "../billing/shard-ledger.ts";
import { accountShard } from "../shards/shard-stub.ts";

/** The balance, with every granted top-up applied. */
export function balanceOf(accountId: string): Promise<number> {
  return currentBalance(env, accountId);
}

/** The account's ledger rows, oldest first; `where` keeps the rows it is true for. */
export async function ledgerOf(accountId: string, where: (row: ShardLedgerRow) => boolean = () => true): Promise<ShardLedgerRow[]> {
  return (await accountShard(env, accountId).ledger(accountId)).filter(where);
}

/** A top-up granted as the operator's CLI grants it (npm run admin -- accounts topup). */
export async function grantTopUpOf(accountId: string, micros: number, reference: string): Promise<void> {
  await grantTopUp(env.DB, accountId, { micros, reference }, Date.now()).run();
}
