import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { createApp } from "../app.ts";
import { generateApiKey } from "../auth/api-key.ts";
import { consumeLedgerFeed, fileFeedMessage, LEDGER_FEED_QUEUE, ledgerFeedMessage } from "../billing/ledger-feed.ts";
import type { Bindings } from "../env.ts";
import { sweepExpiredFiles } from "../files/file-lifecycle.ts";
import { chargeDurableStorage } from "../files/storage-meter.ts";
import type { QueueMessage } from "../jobs/job-message.ts";
import { jobRunners } from "../jobs/job-runners.ts";
import { consumeJobQueue } from "../jobs/queue-consumer.ts";
import { pruneExpiredRecords } from "../maintenance/prune-records.ts";
import { seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { registerGeneratedOrigin } from "../test-support/origin-requests.ts";
import { emptyTally, meteredD1, type StatementTally } from "../test-support/statement-meter.ts";
import { recordingQueue, type RecordedMessage } from "../test-support/recording-queue.ts";
import { emptyShardCalls, meteredShards, type ShardCallTally } from "../test-support/shard-call-meter.ts";
import { seedSource } from "../test-support/transform-requests.ts";
import { sharedStatementBudgets, type RequestKind } from "./statement-budgets.ts";

// Each request kind, sent through the real app (or the real queue consumer and cron handlers) on a
// D1 binding that counts what it is sent, with the isolate's memos warm as a busy edge has them.
// A kind over its budget fails here, naming the statements it sent.

const app = createApp();

interface Metered {
  env: Bindings;
  tally: StatementTally;
  shardCalls: ShardCallTally;
  queued: RecordedMessage[];
}

function meteredEnv(): Metered {
  const tally = emptyTally();
  const shardCalls = emptyShardCalls();
  const queued: RecordedMessage[] = [];
  return {
    env: {
      ...env,
      DB: meteredD1(env.DB, tally),
      ACCOUNT_SHARDS: meteredShards(env.ACCOUNT_SHARDS, shardCalls, "account"),
      FILE_SHARDS: meteredShards(env.FILE_SHARDS, shardCalls, "file"),
      JOBS: recordingQueue(env.JOBS, queued),
      ALLOW_LOOPBACK_URLS: "true",
    },
    tally,
    shardCalls,
    queued,
  };
}

async function send(metered: Metered, path: string, init: { key?: TestCaller | string; json?: unknown; method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const secret = typeof init.key === "string" ? init.key : init.key?.secret;
  if (secret) headers.set("Authorization", `Bearer ${secret}`);
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://api.test${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body }), metered.env, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

/** Runs every message the metered requests queued, and what those queue in turn, through the real consumer. */
async function drainQueue(metered: Metered): Promise<void> {
  while (metered.queued.length > 0) {
    const { body } = metered.queued.shift()!;
    await consumeJobQueue(createMessageBatch<QueueMessage>("pixelpress-jobs", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }]), metered.env, jobRunners);
  }
}

async function measure(kind: RequestKind, run: (metered: Metered) => Promise<void>): Promise<void> {
  const metered = meteredEnv();
  await run(metered);
  const { tally, shardCalls } = metered;
  const sent = tally.reads + tally.writes;
  const budget = sharedStatementBudgets[kind];
  expect.soft(
    { reads: tally.reads, writes: tally.writes, keyIndex: tally.keyIndex, shardCalls: { account: shardCalls.account, file: shardCalls.file } },
    `${kind} sent ${sent} statements to the shared database (${tally.reads} reads, ${tally.writes} writes):\n${tally.sql.join("\n")}\nand made ${shardCalls.calls.length} shard calls: ${shardCalls.calls.join(", ")}`,
  ).toEqual(budget);
}

/** Sends one request and expects its status, so a count is never taken of a request that failed. */
const answered = (status: number, metered: Metered, path: string, init: Parameters<typeof send>[2] = {}) =>
  send(metered, path, init).then((res) => {
    expect(res.status, `${init.method ?? (init.json === undefined ? "GET" : "POST")} ${path}`).toBe(status);
  });

/** A caller whose key the isolate has already looked up once, as on a busy edge. */
async function warmCaller(options: Parameters<typeof seedCaller>[0] = {}): Promise<TestCaller> {
  const caller = await seedCaller(options);
  await send(meteredEnv(), "/v1/account", { key: caller });
  return caller;
}

const photo = () => generatedBytes("landscape-3.jpg");
const pdf = () => generatedBytes("photo-full-page.pdf");

describe("statements each request sends to the shared database", () => {
  it("a transform hit sends none, a miss of a file or an origin path its budget", async () => {
    const caller = await warmCaller();
    const fileId = await seedSource(caller, await photo(), "image/jpeg");
    await registerGeneratedOrigin(caller);
    await send(meteredEnv(), `/v1/image/t/${caller.keyId}/w_64/${fileId}`);
    await measure("transform miss (file)", (m) => answered(200, m, `/v1/image/t/${caller.keyId}/w_48/${fileId}`));
    await measure("transform hit", (m) => answered(200, m, `/v1/image/t/${caller.keyId}/w_48/${fileId}`));
    await measure("transform miss (origin path)", (m) => answered(200, m, `/v1/image/t/${caller.keyId}/w_40/shop/photo.png`));
  });

  it("a processing call, sync or async, with its job and webhook", async () => {
    const caller = await warmCaller();
    const image = { base64: encodeBase64(await photo()) };
    // The isolate has seen this account's balance, as a busy edge has (workers/billing/balance-seen.ts).
    await answered(200, meteredEnv(), "/v1/image/optimize", { key: caller, json: { source: image, options: { width: 63 } } });
    await measure("optimize", (m) => answered(200, m, "/v1/image/optimize", { key: caller, json: { source: image, options: { width: 64 } } }));
    await measure("optimize with Idempotency-Key", (m) =>
      answered(200, m, "/v1/image/optimize", { key: caller, json: { source: image, options: { width: 65 } }, headers: { "Idempotency-Key": crypto.randomUUID() } }),
    );
    const images = Array.from({ length: 10 }, (_, i) => ({ ref: `i${i}`, source: image }));
    await measure("batch of 10", (m) => answered(200, m, "/v1/image/batch", { key: caller, json: { images, options: { width: 40 } } }));
    const document = { base64: encodeBase64(await pdf()) };
    await measure("pdf analyze", (m) => answered(200, m, "/v1/pdf/analyze", { key: caller, json: { source: document } }));
    await measure("pdf compress", (m) => answered(200, m, "/v1/pdf/compress", { key: caller, json: { source: document } }));
    // A webhook endpoint on loopback that answers 200: the Cloudflare API stand-in's "ok-" zone.
    const hook = `${env.CF_API_BASE_URL}/zones/ok-statements/purge_cache`;
    await measure("pdf compress async, its job and webhook", async (m) => {
      const accepted = await send(m, "/v1/pdf/compress", { key: caller, json: { source: document, mode: "async", webhook: { url: hook } } });
      expect(accepted.status).toBe(202);
      await drainQueue(m);
    });
    await measure("xlsx generate", (m) => answered(200, m, "/v1/xlsx/generate", { key: caller, json: { sheets: [{ name: "S", columns: [{ key: "a", header: "A", type: "string" }, { key: "n", header: "N", type: "number" }], rows: [["a", 1]] }] } }));
  });

  it("resource calls, refusals and the cron sweep", async () => {
    const caller = await warmCaller();
    const image = { base64: encodeBase64(await photo()) };
    await measure("file store", (m) => answered(201, m, "/v1/files", { key: caller, json: { source: image } }));
    await measure("file list", (m) => answered(200, m, "/v1/files", { key: caller }));
    await measure("account", (m) => answered(200, m, "/v1/account", { key: caller }));
    await measure("usage", (m) => answered(200, m, "/v1/usage?from=2026-11-01&to=2026-11-30&group_by=operation", { key: caller }));
    const unknownKey = (await generateApiKey()).secret;
    await measure("401", (m) => answered(401, m, "/v1/account", { key: unknownKey }));
    await measure("400", (m) => answered(400, m, "/v1/image/optimize", { key: caller, json: { source: {} } }));
    // What the shards' changes cost the shared database later: they feed them to its reports in
    // queue batches. Each message here carries a charge, a derivative, a file and a job with a webhook attempt, the most a batch writes.
    const now = Date.now();
    const feed = Array.from({ length: 100 }, (_, i) => {
      const name = { fileId: "file_fed", canonical: `w_${i}`, formatClass: "" as const };
      const charge = { seq: 1_000 + i, chargeKey: `transform:file_fed:w_${i}`, operation: "image.transform" as const, amountMicros: 800, units: 1, createdAt: now };
      const derivative = { ...name, seq: i + 1, row: { ...name, r2Key: `k/${i}`, etag: `"${i}"`, bytes: 3, contentType: "image/webp", createdAt: now, overlayFileId: null } };
      const fileRow = { id: `file_fed${i}`, kind: "result" as const, status: "ready" as const, r2Key: `f/${i}`, filename: null, contentType: "image/webp", sizeBytes: 3, sha256: null, createdAt: now, expiresAt: now + 60_000, deletedAt: null, deletedReason: null };
      const jobRow = { id: `job_fed${i}`, keyId: caller.keyId, operation: "pdf.compress" as const, status: "succeeded" as const, request: {}, result: {}, error: null, delivered: { charged_micros: 800, file_ids: [] }, progressDone: 2, progressTotal: 2, attempts: 1, leaseUntil: null, webhookUrl: "https://hooks.example/fed", webhookSecretSealed: null, createdAt: now, startedAt: now, finishedAt: now };
      const attempt = { messageId: `msg_fed${i}`, jobId: jobRow.id, attempt: 1, url: "https://hooks.example/fed", outcome: "delivered" as const, responseStatus: 200, error: null, attemptedAt: now, nextAttemptAt: null };
      const job = { seq: i + 1, row: jobRow, deliveries: [attempt] };
      const message = {
        ...ledgerFeedMessage(caller.accountId, [charge], i === 99 ? { micros: 0, seq: 1_099, branch: 0 } : null, [derivative], [job]),
        files: fileFeedMessage(caller.accountId, [{ seq: i + 1, row: fileRow }]).files,
      };
      return { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message };
    });
    await measure("ledger feed, a batch of 100 messages", (m) => consumeLedgerFeed(createMessageBatch(LEDGER_FEED_QUEUE, feed), m.env.DB));
    await measure("cron sweep", async (m) => {
      const now = Date.now();
      await Promise.all([sweepExpiredFiles(m.env, now), chargeDurableStorage(m.env, now), pruneExpiredRecords(m.env.DB, now)]);
    });
  });
});
