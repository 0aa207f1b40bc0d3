import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AccountShard } from "../shards/account-shard.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { balanceOf, grantTopUpOf, ledgerOf } from "../test-support/account-books.ts";
import { seedCaller } from "../test-support/api.ts";
import { chargeOnce, requireBalance } from "./charge-once.ts";

describe("chargeOnce", () => {
  it("debits the balance once per charge key, even when called concurrently", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10_000 });
    const charge = { accountId, chargeKey: "job:one", operation: "image.optimize" as const, amountMicros: 800 };
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => chargeOnce(env, charge)));
    expect(outcomes.filter((o) => o === "charged")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_charged")).toHaveLength(7);
    expect(await balanceOf(accountId)).toBe(9_200);
    expect(await ledgerOf(accountId, (row) => row.chargeKey === "job:one")).toHaveLength(1);
  });

  it("refuses a charge that would overdraw with a 402 and records nothing", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 500 });
    const attempt = chargeOnce(env, { accountId, chargeKey: "big", operation: "pdf.compress", amountMicros: 20_000 });
    await expect(attempt).rejects.toMatchObject({ slug: "insufficient_balance", status: 402 });
    expect(await balanceOf(accountId)).toBe(500);
    expect(await ledgerOf(accountId, (row) => row.chargeKey === "big")).toEqual([]);
  });

  it("lets a charge take the balance exactly to zero but not below", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 1600 });
    await chargeOnce(env, { accountId, chargeKey: "a", operation: "image.optimize", amountMicros: 800 });
    await chargeOnce(env, { accountId, chargeKey: "b", operation: "image.optimize", amountMicros: 800 });
    await expect(chargeOnce(env, { accountId, chargeKey: "c", operation: "image.optimize", amountMicros: 1 })).rejects.toBeInstanceOf(ProblemError);
    expect(await balanceOf(accountId)).toBe(0);
  });

  it("enforces charge-key uniqueness and the balance floor in the shard's database itself", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10 });
    await balanceOf(accountId);
    const insert = (key: string, micros: number) => (_shard: AccountShard, state: DurableObjectState) =>
      state.storage.sql.exec("INSERT INTO ledger (charge_key, operation, amount_micros, units, created_at) VALUES (?, 'image.optimize', ?, 1, 0)", key, micros);
    const shard = accountShard(env, accountId);
    await runInDurableObject(shard, insert("dup", 1));
    await expect(runInDurableObject(shard, insert("dup", 1))).rejects.toThrow(/UNIQUE/);
    await expect(runInDurableObject(shard, insert("overdraw", 10))).rejects.toThrow(/balance_non_negative/);
    expect(await balanceOf(accountId)).toBe(9);
  });

  it("applies a granted top-up once per reference, at the next balance check that falls short", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 0 });
    await expect(requireBalance(env, accountId, 1)).rejects.toMatchObject({ status: 402 });
    await grantTopUpOf(accountId, 5_000, "invoice-1");
    await grantTopUpOf(accountId, 5_000, "invoice-1");
    expect(await balanceOf(accountId)).toBe(5_000);
    await grantTopUpOf(accountId, 5_000, "invoice-1");
    expect(await balanceOf(accountId)).toBe(5_000);
    expect(await ledgerOf(accountId, (row) => row.operation === "account.topup")).toMatchObject([{ chargeKey: "topup:invoice-1", amountMicros: -5_000 }]);
    await expect(requireBalance(env, accountId, 5_001)).rejects.toMatchObject({ status: 402 });
    await expect(requireBalance(env, accountId, 5_000)).resolves.toBeUndefined();
  });
});
