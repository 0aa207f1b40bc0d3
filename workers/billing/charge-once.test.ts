import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { findAccount } from "../accounts/account-store.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { seedCaller } from "../test-support/api.ts";
import { chargeOnce, requireBalance, topUp } from "./charge-once.ts";

describe("chargeOnce", () => {
  it("debits the balance once per charge key, even when called concurrently", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10_000 });
    const charge = { accountId, chargeKey: "job:one", operation: "image.optimize" as const, amountMicros: 800 };
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => chargeOnce(env.DB, charge)));
    expect(outcomes.filter((o) => o === "charged")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_charged")).toHaveLength(7);
    expect((await findAccount(env.DB, accountId))!.balance_micros).toBe(9_200);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE account_id = ? AND charge_key = 'job:one'")
      .bind(accountId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it("refuses a charge that would overdraw with a 402 and records nothing", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 500 });
    const attempt = chargeOnce(env.DB, { accountId, chargeKey: "big", operation: "pdf.compress", amountMicros: 20_000 });
    await expect(attempt).rejects.toMatchObject({ slug: "insufficient_balance", status: 402 });
    expect((await findAccount(env.DB, accountId))!.balance_micros).toBe(500);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE account_id = ? AND charge_key = 'big'")
      .bind(accountId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("lets a charge take the balance exactly to zero but not below", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 1600 });
    await chargeOnce(env.DB, { accountId, chargeKey: "a", operation: "image.optimize", amountMicros: 800 });
    await chargeOnce(env.DB, { accountId, chargeKey: "b", operation: "image.optimize", amountMicros: 800 });
    await expect(
      chargeOnce(env.DB, { accountId, chargeKey: "c", operation: "image.optimize", amountMicros: 1 }),
    ).rejects.toBeInstanceOf(ProblemError);
    expect((await findAccount(env.DB, accountId))!.balance_micros).toBe(0);
  });

  it("enforces ledger uniqueness in the database itself", async () => {
    const { accountId } = await seedCaller();
    const insert = () =>
      env.DB.prepare(
        "INSERT INTO ledger (account_id, charge_key, operation, amount_micros, created_at) VALUES (?, 'dup', 'image.optimize', 1, 0)",
      )
        .bind(accountId)
        .run();
    await insert();
    await expect(insert()).rejects.toThrow(/UNIQUE/);
  });

  it("tops up through the ledger, once per reference", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 0 });
    expect(await topUp(env.DB, accountId, 5_000, "invoice-1")).toBe("charged");
    expect(await topUp(env.DB, accountId, 5_000, "invoice-1")).toBe("already_charged");
    expect((await findAccount(env.DB, accountId))!.balance_micros).toBe(5_000);
    await expect(requireBalance(env.DB, accountId, 5_001)).rejects.toMatchObject({ status: 402 });
    await expect(requireBalance(env.DB, accountId, 5_000)).resolves.toBeUndefined();
  });
});
