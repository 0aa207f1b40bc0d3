import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { seedCaller } from "../test-support/api.ts";
import { accountBranches, chargeBranch, everyBranch } from "./account-branches.ts";
import { accountUsage } from "./account-usage.ts";
import { chargeOnce, currentBalance, requireBalance } from "./charge-once.ts";
import { fedBalance } from "./d1-ledger.ts";
import type { ShardLedgerRow } from "./shard-ledger.ts";

const PRICE = 700;
// Four shards an account: charges spread over them by key.
const branched = { ...env, FILE_SHARDS_PER_ACCOUNT: "4" };

const charge = (accountId: string, key: string, amountMicros = PRICE) => ({ accountId, chargeKey: `req:${key}`, operation: "image.optimize" as const, amountMicros });

/** Every shard's ledger rows, by shard. */
function ledgers(accountId: string): Promise<ShardLedgerRow[][]> {
  return Promise.all(everyBranch(branched, accountId).map((shard) => shard.ledger(accountId)));
}

async function attempt(accountId: string, key: string): Promise<"charged" | "refused"> {
  try {
    await chargeOnce(branched, charge(accountId, key));
    return "charged";
  } catch (error) {
    if (error instanceof ProblemError && error.slug === "insufficient_balance") return "refused";
    throw error;
  }
}

describe("an account's money over several shards", () => {
  it("spreads request charges over the shards by key, and the same key always to the same shard", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `req:spread-${i}`);
    const branches = new Set(keys.map((key) => chargeBranch(branched, key)));
    expect(branches).toEqual(new Set([0, 1, 2, 3]));
    expect(keys.map((key) => chargeBranch(branched, key))).toEqual(keys.map((key) => chargeBranch(branched, key)));
    expect(chargeBranch(branched, "job:job_1")).toBe(0);
    expect(chargeBranch(env, keys[1]!)).toBe(0);
    expect(accountBranches(branched)).toBe(4);
  });

  it("pays for exactly the fifty calls at once it covers, wherever they land, and ends at zero", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 * PRICE });
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => attempt(accountId, `race-${i}`)));
    expect(outcomes.filter((o) => o === "charged")).toHaveLength(10);
    expect(await currentBalance(branched, accountId)).toBe(0);
    const charges = (await ledgers(accountId)).map((rows) => rows.filter((row) => row.operation === "image.optimize"));
    expect(charges.flat()).toHaveLength(10);
    // Not all in the first shard: the branches charged from allotments.
    expect(charges.slice(1).flat().length).toBeGreaterThan(0);
    // What moved between the shards adds up to nothing.
    const transfers = (await ledgers(accountId)).flat().filter((row) => row.operation === "account.transfer");
    expect(transfers.reduce((sum, row) => sum + row.amountMicros, 0)).toBe(0);
  });

  it("takes back what one branch holds before it refuses another branch's call", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 1_000 });
    const keyIn = (branch: number) => Array.from({ length: 50 }, (_, i) => `gather-${i}`).find((k) => chargeBranch(branched, `req:${k}`) === branch)!;
    // Branch 1 is allotted half the balance for a 300 charge and keeps 200 of it; the first shard keeps 500.
    expect(await chargeOnce(branched, charge(accountId, keyIn(1), 300))).toBe("charged");
    expect(await accountShard(env, accountId, 1).heldMicros(accountId, null)).toBe(200);
    // Branch 2 needs 700: only the first shard's 500 and branch 1's 200 together cover it.
    expect(await chargeOnce(branched, charge(accountId, keyIn(2), 700))).toBe("charged");
    expect(await currentBalance(branched, accountId)).toBe(0);
    expect(await attempt(accountId, keyIn(3))).toBe("refused");
  });

  it("charges a key once however many times it is sent, in whichever shard it lands", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 * PRICE });
    expect(await chargeOnce(branched, charge(accountId, "twice"))).toBe("charged");
    expect(await chargeOnce(branched, charge(accountId, "twice"))).toBe("already_charged");
    expect(await currentBalance(branched, accountId)).toBe(9 * PRICE);
  });

  it("answers an allotment asked twice under one number with the first amount, and a branch records a reply it lost when next asked", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 * PRICE });
    const first = accountShard(env, accountId);
    const branch = accountShard(env, accountId, 2);
    // A branch asked and its reply was lost: the first shard moved the money, the branch never recorded it.
    const allotted = await first.allot(accountId, 2, 1, PRICE);
    expect(allotted).toBeGreaterThanOrEqual(PRICE);
    expect(await first.allot(accountId, 2, 1, 3 * PRICE)).toBe(allotted);
    // Asked what it holds, the branch is told of the allotment and records it, once.
    expect(await currentBalance(branched, accountId)).toBe(10 * PRICE);
    expect(await branch.heldMicros(accountId, null)).toBe(allotted);
    // Lost again; a call the first shard cannot cover gathers the branches, which first record what they were sent.
    const second = await first.allot(accountId, 2, 2, PRICE);
    await requireBalance(branched, accountId, 10 * PRICE);
    expect(await first.balance(accountId, 0)).toBe(10 * PRICE);
    expect(await branch.heldMicros(accountId, null)).toBe(0);
    const received = (await branch.ledger(accountId)).filter((row) => row.chargeKey.startsWith("allot-in:2:"));
    expect(received.map((row) => -row.amountMicros)).toEqual([allotted, second]);
  });

  it("gives back once what a branch held, however often the same recall is asked", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 * PRICE });
    const key = Array.from({ length: 20 }, (_, i) => `held-${i}`).find((k) => chargeBranch(branched, `req:${k}`) === 3)!;
    await chargeOnce(branched, charge(accountId, key));
    const branch = accountShard(env, accountId, 3);
    const held = await branch.heldMicros(accountId, null);
    expect(held).toBeGreaterThan(0);
    expect(await branch.giveBack(accountId, 1, null)).toBe(held);
    expect(await branch.giveBack(accountId, 1, null)).toBe(held);
    expect(await branch.heldMicros(accountId, null)).toBe(0);
  });

  it("sums usage over the shards", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 * PRICE });
    const start = Date.now();
    for (let i = 0; i < 6; i++) await chargeOnce(branched, charge(accountId, `usage-${i}`));
    expect(await accountUsage(branched, accountId, "operation", start - 1, Date.now() + 1)).toEqual([{ operation: "image.optimize", count: 6, micros: 6 * PRICE }]);
  });

  it("feeds each shard's balance to the report, where they add up to the account's", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 * PRICE });
    for (let i = 0; i < 6; i++) await chargeOnce(branched, charge(accountId, `fed-${i}`));
    for (const shard of everyBranch(branched, accountId)) await runDurableObjectAlarm(shard);
    await expect.poll(() => fedBalance(env.DB, accountId), { timeout: 15_000, interval: 200 }).toBe(4 * PRICE);
    const rows = await env.DB.prepare("SELECT SUM(amount_micros) AS sum FROM ledger WHERE account_id = ?").bind(accountId).first<{ sum: number }>();
    expect(-rows!.sum).toBe(4 * PRICE);
  });
});
