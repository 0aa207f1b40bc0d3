import { createMessageBatch, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { AccountShard } from "../shards/account-shard.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { chargeOnce } from "./charge-once.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { balanceOf, ledgerOf } from "../test-support/account-books.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { DROPPED_MARKER_MS, forgetDroppedDerivatives } from "../derivatives/d1-derivatives.ts";
import { consumeLedgerFeed, LEDGER_FEED_QUEUE, ledgerFeedMessage, type JobChangeWithDeliveries, type LedgerFeedMessage } from "./ledger-feed.ts";
import { claimJob, createJob, succeedJob } from "../jobs/job-store.ts";

const row = (seq: number, micros = 800) => ({ seq, chargeKey: `req:feed-${seq}`, operation: "image.optimize" as const, amountMicros: micros, units: 1, createdAt: Date.now() });

function batchOf(...bodies: unknown[]) {
  return createMessageBatch<LedgerFeedMessage>(LEDGER_FEED_QUEUE, bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: body as LedgerFeedMessage })));
}

async function reported(accountId: string) {
  const rows = await env.DB.prepare("SELECT charge_key, amount_micros FROM ledger WHERE account_id = ? ORDER BY charge_key").bind(accountId).all<{ charge_key: string; amount_micros: number }>();
  const account = await env.DB.prepare("SELECT balance_micros, ledger_fed_seq FROM accounts WHERE id = ?").bind(accountId).first<{ balance_micros: number; ledger_fed_seq: number }>();
  return { rows: rows.results, balance: account!.balance_micros, fedSeq: account!.ledger_fed_seq };
}

describe("the ledger feed's consumer", () => {
  it("records a redelivered message once, and keeps the newest balance whatever order messages come in", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 0 });
    const first = ledgerFeedMessage(accountId, [row(1)], { micros: 9_200, seq: 1, branch: 0 });
    const second = ledgerFeedMessage(accountId, [row(2)], { micros: 8_400, seq: 2, branch: 0 });
    await consumeLedgerFeed(batchOf(second), env.DB);
    await consumeLedgerFeed(batchOf(first, second), env.DB);
    expect(await reported(accountId)).toEqual({
      rows: [
        { charge_key: "req:feed-1", amount_micros: 800 },
        { charge_key: "req:feed-2", amount_micros: 800 },
      ],
      balance: 8_400,
      fedSeq: 2,
    });
  });

  it("drops a message that is not a feed message and writes the rest", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 0 });
    const batch = batchOf({ account_id: accountId, rows: "not rows" }, ledgerFeedMessage(accountId, [row(1, 5)], { micros: 1, seq: 1, branch: 0 }));
    await consumeLedgerFeed(batch, env.DB);
    expect(await reported(accountId)).toMatchObject({ rows: [{ charge_key: "req:feed-1", amount_micros: 5 }], balance: 1 });
  });
});

describe("the derivative report the feed keeps", () => {
  const name = { fileId: "file_fed", canonical: "w_10", formatClass: "" as const };
  const kept = (seq: number, etag: string) => ({ ...name, seq, row: { ...name, r2Key: `k/${etag}`, etag, bytes: 3, contentType: "image/webp", createdAt: 1, overlayFileId: null } });
  const dropped = (seq: number) => ({ ...name, seq, row: null });
  const report = (accountId: string) =>
    env.DB.prepare("SELECT etag, fed_seq, dropped_at IS NOT NULL AS dropped FROM derivatives WHERE account_id = ?").bind(accountId).all().then((rows) => rows.results);

  it("keeps each derivative's newest change whatever order or how often the changes come", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 0 });
    const message = (...derivatives: ReturnType<typeof kept | typeof dropped>[]) => ledgerFeedMessage(accountId, [], null, derivatives);
    await consumeLedgerFeed(batchOf(message(kept(1, '"a"'))), env.DB);
    expect(await report(accountId)).toEqual([{ etag: '"a"', fed_seq: 1, dropped: 0 }]);
    await consumeLedgerFeed(batchOf(message(dropped(3))), env.DB);
    // A late copy of a keep older than the drop, and the drop again: the derivative stays dropped.
    await consumeLedgerFeed(batchOf(message(kept(2, '"b"')), message(dropped(3))), env.DB);
    expect(await report(accountId)).toEqual([{ etag: '"a"', fed_seq: 3, dropped: 1 }]);
    await consumeLedgerFeed(batchOf(message(kept(4, '"c"'))), env.DB);
    expect(await report(accountId)).toEqual([{ etag: '"c"', fed_seq: 4, dropped: 0 }]);
  });

  it("forgets a dropped derivative's marker a day after the drop", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 0 });
    await consumeLedgerFeed(batchOf(ledgerFeedMessage(accountId, [], null, [dropped(1)])), env.DB);
    expect(await forgetDroppedDerivatives(env.DB, Date.now() + DROPPED_MARKER_MS - 60_000)).toBe(0);
    expect(await report(accountId)).toHaveLength(1);
    expect(await forgetDroppedDerivatives(env.DB, Date.now() + DROPPED_MARKER_MS + 60_000)).toBeGreaterThanOrEqual(1);
    expect(await report(accountId)).toEqual([]);
  });
});

describe("the job report the feed keeps", () => {
  const jobReport = (accountId: string) =>
    env.DB.prepare("SELECT status, delivered, fed_seq, request, result FROM jobs WHERE account_id = ?").bind(accountId).all().then((rows) => rows.results);
  const attemptReport = (jobId: string) =>
    env.DB.prepare("SELECT attempt, outcome, next_attempt_at FROM webhook_deliveries WHERE job_id = ? ORDER BY attempt").bind(jobId).all().then((rows) => rows.results);

  it("keeps each job's newest change whatever order the changes come in, and each attempt once", async () => {
    const { accountId, keyId } = await seedCaller({ balanceMicros: 0 });
    const id = `job_fed${crypto.randomUUID().replaceAll("-", "").slice(0, 17)}`;
    const now = Date.now();
    const jobAt = (seq: number, status: "running" | "succeeded", attempts: number): JobChangeWithDeliveries => ({
      seq,
      row: { id, keyId, operation: "pdf.compress", status, request: { big: "x" }, result: { kept: "in the shard" }, error: null, delivered: status === "succeeded" ? { charged_micros: 900, file_ids: ["file_out"] } : null, progressDone: null, progressTotal: null, attempts: 1, leaseUntil: null, webhookUrl: "https://hooks.example/job", webhookSecretSealed: "sealed", createdAt: now, startedAt: now, finishedAt: status === "succeeded" ? now : null },
      deliveries: Array.from({ length: attempts }, (_, i) => ({ messageId: `msg_${id}`, jobId: id, attempt: i + 1, url: "https://hooks.example/job", outcome: "failed" as const, responseStatus: 500, error: "endpoint answered 500", attemptedAt: now, nextAttemptAt: now + 5_000 })),
    });
    const message = (job: JobChangeWithDeliveries) => ledgerFeedMessage(accountId, [], null, [], [job]);
    await consumeLedgerFeed(batchOf(message(jobAt(3, "succeeded", 1))), env.DB);
    await consumeLedgerFeed(batchOf(message(jobAt(2, "running", 0)), message(jobAt(3, "succeeded", 1))), env.DB);
    expect(await jobReport(accountId)).toEqual([{ status: "succeeded", delivered: JSON.stringify({ charged_micros: 900, file_ids: ["file_out"] }), fed_seq: 3, request: "{}", result: null }]);
    await consumeLedgerFeed(batchOf(message(jobAt(4, "succeeded", 2))), env.DB);
    expect(await attemptReport(id)).toEqual([
      { attempt: 1, outcome: "failed", next_attempt_at: now + 5_000 },
      { attempt: 2, outcome: "failed", next_attempt_at: now + 5_000 },
    ]);
  });

  it("brings a job run in its shard to the report at the shard's alarm", async () => {
    const caller = await seedCaller({ balanceMicros: 0 });
    const job = await createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "xlsx.generate", request: {} });
    await claimJob(env, caller.accountId, job.id, Date.now(), 60_000);
    await succeedJob(env, caller.accountId, job.id, { any: "result" }, { charged_micros: 0, file_ids: [] });
    expect(await jobReport(caller.accountId)).toEqual([]);
    await runDurableObjectAlarm(accountShard(env, caller.accountId));
    await vi.waitFor(async () => expect(await jobReport(caller.accountId)).toEqual([{ status: "succeeded", delivered: '{"charged_micros":0,"file_ids":[]}', fed_seq: expect.any(Number) as unknown, request: "{}", result: null }]), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

describe("a shard feeding the shared report", () => {
  it("keeps its rows unfed and tries again later when the queue refuses them", async () => {
    const { accountId } = await seedCaller({ balanceMicros: 10_000 });
    await chargeOnce(env, { accountId, chargeKey: "req:refused-feed", operation: "image.optimize", amountMicros: 800 });
    const shard = accountShard(env, accountId);
    // The queue down, as the shard sees it.
    const down = { send: () => Promise.reject(new Error("queue unavailable")) };
    await runInDurableObject(shard, (instance: AccountShard) => Object.defineProperty(instance, "env", { value: { ...env, LEDGER_FEED: down } }));
    const ranAt = Date.now();
    expect(await runDurableObjectAlarm(shard)).toBe(true);
    const [unfed, nextAlarm] = await runInDurableObject(shard, async (_instance: AccountShard, state) => [
      state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM ledger WHERE fed = 0").one().n,
      await state.storage.getAlarm(),
    ]);
    expect(unfed).toBe(2);
    expect(nextAlarm).toBeGreaterThanOrEqual(ranAt + 30_000);
    // Not left to fire 30 s from now, while another file's tests run: the pool serves a module an
    // alarm asks for only to the file that is running, and one asked after its file ended stops the run.
    await runInDurableObject(shard, (_instance: AccountShard, state) => state.storage.deleteAlarm());
  });

  it("sends its new rows and the balance they leave at its alarm, and the report ends equal to the shard", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const image = { base64: encodeBase64(await generatedBytes("landscape-3.jpg")) };
    for (const width of [20, 21]) expect((await api("/v1/image/optimize", { key: caller, json: { source: image, options: { width } } })).status).toBe(200);
    const shardRows = await ledgerOf(caller.accountId);
    expect(shardRows.map((r) => r.operation)).toEqual(["account.topup", "image.optimize", "image.optimize"]);
    expect(await runDurableObjectAlarm(accountShard(env, caller.accountId))).toBe(true);
    // The message goes through the real queue to the real consumer, a batch timeout later.
    await expect.poll(() => reported(caller.accountId), { timeout: 15_000, interval: 200 }).toMatchObject({ balance: await balanceOf(caller.accountId), fedSeq: 3 });
    const { rows } = await reported(caller.accountId);
    expect(rows.map((r) => r.charge_key).sort()).toEqual(shardRows.map((r) => r.chargeKey).sort());
  });
});
