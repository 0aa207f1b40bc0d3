import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { accountShard, type AccountShards } from "../shards/shard-stub.ts";
import { chargeBranch, type BranchEnv } from "./account-branches.ts";
import { sawBalance, surelyCovered } from "./balance-seen.ts";
import type { Charge, ChargeOutcome } from "./charge.ts";

/**
 * Records a charge and debits the balance in the account's shard its key goes to
 * (./account-branches.ts), in one statement there (./shard-ledger.ts): the unique charge key turns
 * a second attempt into a no-op, and the balance's CHECK turns an overdraw into a 402 with nothing
 * recorded once the account's money, wherever it sits, does not cover it (./account-money.ts).
 * Both hold under concurrent requests, since the shard runs one call at a time.
 */
export async function chargeOnce(env: BranchEnv, charge: Charge, now = Date.now()): Promise<ChargeOutcome> {
  const answer = await accountShard(env, charge.accountId, chargeBranch(env, charge.chargeKey)).charge(charge.accountId, charge, now);
  return chargeAnswered(charge, answer);
}

/** What a shard answered to a charge it made, here or with other work (a derivative kept): the balance noted, an overdraw the 402. */
export function chargeAnswered<Outcome extends string>(charge: Charge, answer: { outcome: Outcome | "insufficient_balance"; balanceMicros: number | null }): Outcome {
  if (answer.balanceMicros !== null) sawBalance(charge.accountId, answer.balanceMicros);
  if (answer.outcome === "insufficient_balance") {
    throw new ProblemError("insufficient_balance", `This operation costs ${charge.amountMicros} micros and the balance does not cover it.`, {
      extensions: { required_micros: charge.amountMicros },
    });
  }
  return answer.outcome;
}

/** A 402 before any work starts, so a client without funds does not wait for a result it cannot get. */
export async function requireBalance(env: AccountShards, accountId: string, micros: number): Promise<void> {
  if (micros <= 0 || surelyCovered(accountId, micros)) return;
  const balance = await accountShard(env, accountId).balance(accountId, micros);
  sawBalance(accountId, balance);
  if (balance < micros) {
    throw new ProblemError("insufficient_balance", `This operation can cost up to ${micros} micros; the balance is ${balance}.`, {
      extensions: { required_micros: micros, balance_micros: balance },
    });
  }
}

/** The balance as the account sees it, with every top-up granted so far applied. */
export function currentBalance(env: AccountShards, accountId: string): Promise<number> {
  return accountShard(env, accountId).balance(accountId, Number.POSITIVE_INFINITY);
}
