// The books (scripts/soak/reconcile.ts) read the shared database's reports, which the account
// shards feed: derivatives kept and dropped through the real edge, in the real shard, must reach
// the report so that a deliberate deletion balances and only a true loss is reported.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { platformFailures, reconcilePlatform } from "../../scripts/soak/reconcile.ts";
import { ledgerFeedSettled } from "../../scripts/soak/ledger-feed-settled.ts";
import { chargeOnce } from "../billing/charge-once.ts";
import { accountShard, fileShard } from "../shards/shard-stub.ts";
import { ledgerOf } from "../test-support/account-books.ts";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { loopbackApi, originTransformUrl, registerGeneratedOrigin } from "../test-support/origin-requests.ts";
import { seedSource, transformUrl } from "../test-support/transform-requests.ts";

async function fetched(path: string): Promise<void> {
  const res = await loopbackApi(path);
  expect(res.status, path).toBe(200);
  await res.arrayBuffer();
}

/** The books once the account's shards have fed what they did (the edge's tests feed only when a test runs the alarm). */
async function books(caller: TestCaller, since: number) {
  await runDurableObjectAlarm(accountShard(env, caller.accountId));
  await runDurableObjectAlarm(fileShard(env, caller.accountId));
  await ledgerFeedSettled(env.DB);
  return reconcilePlatform(env.DB, env.FILES, { jobDeadlineMs: 60_000, since });
}

const derivativesReported = (accountId: string) =>
  env.DB.prepare("SELECT canonical FROM derivatives WHERE account_id = ? AND dropped_at IS NULL ORDER BY canonical")
    .bind(accountId)
    .all<{ canonical: string }>()
    .then((rows) => rows.results.map((row) => row.canonical));

describe("the books over derivatives the shards keep", () => {
  it("balance with a file's derivatives kept, and again after an ack deleted them on purpose", async () => {
    const since = Date.now();
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    for (const transform of ["w_20", "w_30", "w_20,anim_false"]) await fetched(transformUrl(caller, transform, fileId));

    const kept = await books(caller, since);
    expect(await derivativesReported(caller.accountId)).toEqual(["w_20", "w_20,anim_false", "w_30"]);
    expect(kept.charges.rows).toBeGreaterThanOrEqual(2);
    expect(platformFailures(kept)).toEqual([]);

    expect((await api(`/v1/files/${fileId}/ack`, { key: caller, method: "POST" })).status).toBe(200);
    const acked = await books(caller, since);
    expect(await derivativesReported(caller.accountId)).toEqual([]);
    expect(acked.charges.withoutOutput).toEqual([]);
    expect(acked.charges.deletedOutputs).toEqual(expect.arrayContaining([`transform:${fileId}:w_20`, `transform:${fileId}:w_30`]));
    expect(platformFailures(acked)).toEqual([]);
  });

  it("balance after a purge of files dropped the derivatives of a file that lives on, and report a derivative's object lost", async () => {
    const since = Date.now();
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    await fetched(transformUrl(caller, "w_24", fileId));
    expect((await api("/v1/purge", { key: caller, json: { files: [fileId] } })).status).toBe(200);
    const purged = await books(caller, since);
    expect(purged.charges.deletedOutputs).toEqual(expect.arrayContaining([`transform:${fileId}:w_24`]));
    expect(platformFailures(purged)).toEqual([]);

    // Made again (not charged again), then its object lost: the report names what the shard keeps.
    await fetched(transformUrl(caller, "w_24", fileId));
    const lost = await books(caller, since);
    const { results } = await env.DB.prepare("SELECT r2_key FROM derivatives WHERE account_id = ? AND dropped_at IS NULL").bind(caller.accountId).all<{ r2_key: string }>();
    expect(results).toHaveLength(1);
    expect(platformFailures(lost)).toEqual([]);
    const object = await env.FILES.get(results[0]!.r2_key);
    const bytes = new Uint8Array(await object!.arrayBuffer());
    await env.FILES.delete(results[0]!.r2_key);
    expect((await reconcilePlatform(env.DB, env.FILES, { jobDeadlineMs: 60_000, since })).storage.rowsWithoutObject).toEqual([results[0]!.r2_key]);
    // Back, so the books of the tests after this one are not this loss's.
    await env.FILES.put(results[0]!.r2_key, bytes);
  });

  it("balance with an origin path's derivative kept; report planted orphans and a lost charge; balance after a purge of the path", async () => {
    const since = Date.now();
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    await fetched(originTransformUrl(caller, "w_30", "shop", "/rgb.png"));
    const kept = await books(caller, since);
    expect(await derivativesReported(caller.accountId)).toEqual(["w_30"]);
    expect(platformFailures(kept)).toEqual([]);

    // An original and a mezzanine no row accounts for, and a charge for the current version whose output is gone.
    const [paid] = (await ledgerOf(caller.accountId)).filter((row) => row.operation === "image.transform").map((row) => row.chargeKey);
    const lost = paid!.replace(/:w_30$/, ":w_99");
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: lost, operation: "image.transform", amountMicros: 800 });
    const orphans = [`accounts/${caller.accountId}/origins/orig_ghost/%2Fghost.png/${"0".repeat(20)}`, `mezzanine/orig_ghost/${"a".repeat(24)}/${"b".repeat(20)}`];
    for (const key of orphans) await env.FILES.put(key, new Uint8Array([9]));
    const planted = await books(caller, since);
    expect(planted.storage.objectsWithoutRow.sort()).toEqual(orphans.sort());
    expect(planted.charges.withoutOutput).toEqual([lost]);
    for (const key of orphans) await env.FILES.delete(key);

    // A purge takes the version's original, derivative and mezzanine: its charges were for outputs deleted on purpose.
    expect((await api("/v1/purge", { key: caller, json: { origin: "shop", paths: ["/rgb.png"] } })).status).toBe(200);
    const purged = await books(caller, since);
    expect(await derivativesReported(caller.accountId)).toEqual([]);
    expect(purged.charges.deletedOutputs).toEqual(expect.arrayContaining([paid, lost]));
    expect(platformFailures(purged)).toEqual([]);
  });
});
