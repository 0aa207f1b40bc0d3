import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { prices } from "../../contracts/pricing.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf, ledgerOf } from "../test-support/account-books.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { everyBranch } from "./account-branches.ts";
import { currentBalance } from "./charge-once.ts";

// The money rule the move to per-account shards must keep (issue #44): an account with money for
// exactly ten calls sends fifty at once; ten are charged, forty are refused with 402, and the
// balance ends at zero, never below.
describe("a balance under fifty calls at once", () => {
  it("pays for exactly the calls it covers and never goes below zero", async () => {
    const caller = await seedCaller({ balanceMicros: 10 * prices.image });
    const source = { base64: encodeBase64(await generatedBytes("landscape-3.jpg")) };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api("/v1/image/optimize", { key: caller, json: { source, options: { width: 8 + i, format: "webp" } } })),
    );
    const statuses = answers.map((res) => res.status);
    const charged = await Promise.all(answers.filter((res) => res.status === 200).map(async (res) => (await res.json<{ billing: { charged_micros: number } }>()).billing.charged_micros));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(charged).toEqual(Array.from({ length: 10 }, () => prices.image));
    expect(await balanceOf(caller.accountId)).toBe(0);
    const charges = await ledgerOf(caller.accountId, (row) => row.operation === "image.optimize");
    expect(charges.map((row) => row.amountMicros)).toEqual(Array.from({ length: 10 }, () => prices.image));
  });

  it("holds the same over four shards of the account, its money spread over them by allotments", async () => {
    const shards = { FILE_SHARDS_PER_ACCOUNT: "4" };
    const caller = await seedCaller({ balanceMicros: 10 * prices.image });
    const source = { base64: encodeBase64(await generatedBytes("landscape-3.jpg")) };
    const optimize = (width: number) =>
      new Request("http://api.test/v1/image/optimize", {
        method: "POST",
        headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
        body: JSON.stringify({ source, options: { width, format: "webp" } }),
      });
    const statuses = await Promise.all(Array.from({ length: 50 }, async (_, i) => (await fetchWithEnv(shards, optimize(8 + i))).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(await currentBalance({ ...env, ...shards }, caller.accountId)).toBe(0);
    const ledgers = await Promise.all(everyBranch({ ...env, ...shards }, caller.accountId).map((shard) => shard.ledger(caller.accountId)));
    const charges = ledgers.map((rows) => rows.filter((row) => row.operation === "image.optimize"));
    expect(charges.flat()).toHaveLength(10);
    expect(charges.filter((rows) => rows.length > 0).length).toBeGreaterThan(1);
  });
});
