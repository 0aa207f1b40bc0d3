import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AccountShard } from "../shards/account-shard.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { seedCaller } from "../test-support/api.ts";
import { sawBalance, surelyCovered } from "./balance-seen.ts";
import { chargeOnce, requireBalance } from "./charge-once.ts";

describe("the balance an isolate saw", () => {
  it("answers a check only when a sight under a second old covers the call twenty times, taking each call off it", () => {
    const now = 1_000_000;
    sawBalance("acct_seen", 20 * 800 + 799, now);
    expect(surelyCovered("acct_seen", 800, now + 1_000)).toBe(true);
    expect(surelyCovered("acct_seen", 800, now + 1_000)).toBe(false);
    sawBalance("acct_seen", 100_000, now);
    expect(surelyCovered("acct_seen", 800, now + 1_001)).toBe(false);
    expect(surelyCovered("acct_never_seen", 1, now)).toBe(false);
  });

  it("spares the shard the check before work, while the charge after it still refuses what the balance cannot pay", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 1_000_000 });
    const charge = (key: string) => chargeOnce(env, { accountId, chargeKey: key, operation: "image.optimize", amountMicros: 800 });
    expect(await charge("first")).toBe("charged");
    // Spent elsewhere (another isolate), unseen here.
    await runInDurableObject(accountShard(env, accountId), (_shard: AccountShard, state) => state.storage.sql.exec("UPDATE balance SET micros = 0"));
    await expect(requireBalance(env, accountId, 800)).resolves.toBeUndefined();
    await expect(charge("second")).rejects.toMatchObject({ status: 402 });
    await expect(requireBalance(env, accountId, 800)).rejects.toMatchObject({ status: 402 });
  });
});
