import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AccountShard } from "../shards/account-shard.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { seedCaller } from "../test-support/api.ts";
import { chargeOnce } from "./charge-once.ts";
import { feedQueueOf, isFeedQueue } from "./feed-queues.ts";
import type { LedgerFeedMessage } from "./ledger-feed.ts";

/** A queue that keeps what it is sent. */
function keptQueue(sent: LedgerFeedMessage[]): Queue<LedgerFeedMessage> {
  return { send: (body: LedgerFeedMessage) => Promise.resolve(void sent.push(body)), sendBatch: () => Promise.reject(new Error("not used")) } as unknown as Queue<LedgerFeedMessage>;
}

describe("the ledger feed's queues", () => {
  it("spread accounts over the queues bound, each account always to the same one", () => {
    const queues = { LEDGER_FEED: keptQueue([]), LEDGER_FEED_1: keptQueue([]) };
    const accounts = Array.from({ length: 40 }, (_, i) => `acct_${i}`);
    const picked = accounts.map((id) => feedQueueOf(queues, id));
    expect(new Set(picked).size).toBe(2);
    expect(accounts.map((id) => feedQueueOf(queues, id))).toEqual(picked);
    expect(accounts.every((id) => feedQueueOf({ LEDGER_FEED: queues.LEDGER_FEED }, id) === queues.LEDGER_FEED)).toBe(true);
  });

  it("are consumed by name, the first and those after it, and nothing else", () => {
    expect(["pixelpress-ledger", "pixelpress-ledger-1", "pixelpress-ledger-7"].every(isFeedQueue)).toBe(true);
    expect(["pixelpress-ledger-8", "pixelpress-jobs", "pixelpress-jobs-dlq"].some(isFeedQueue)).toBe(false);
  });

  it("carry an account's shard's changes on the queue its id picks", async () => {
    const first: LedgerFeedMessage[] = [];
    const second: LedgerFeedMessage[] = [];
    const queues = { LEDGER_FEED: keptQueue(first), LEDGER_FEED_1: keptQueue(second) };
    let caller = await seedCaller({ balanceMicros: 10_000 });
    while (feedQueueOf(queues, caller.accountId) !== queues.LEDGER_FEED_1) caller = await seedCaller({ balanceMicros: 10_000 });
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "req:second-queue", operation: "image.optimize", amountMicros: 800 });
    const shard = accountShard(env, caller.accountId);
    await runInDurableObject(shard, (instance: AccountShard) => Object.defineProperty(instance, "env", { value: { ...env, ...queues } }));
    await runDurableObjectAlarm(shard);
    expect(first).toEqual([]);
    expect(second.map((message) => [message.account_id, message.rows.map((row) => row.charge_key)])).toEqual([[caller.accountId, ["topup:opening:" + caller.accountId, "req:second-queue"]]]);
  });
});
