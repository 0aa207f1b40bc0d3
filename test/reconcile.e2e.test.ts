// The books (scripts/soak/reconcile.ts) read a succeeded job's stored result through its
// operation's schema: a result of another shape is reported, not read as "charged nothing,
// delivered nothing", which a $0 job's empty ledger would otherwise agree with.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAccount } from "../workers/billing/open-account.ts";
import { transformChargeKey } from "../workers/billing/charge-key.ts";
import { fedLedgerStatements } from "../workers/billing/d1-ledger.ts";
import { fedFileStatements } from "../workers/files/d1-files.ts";
import type { FileRow } from "../workers/files/shard-files.ts";
import { fileKey } from "../workers/files/file-store.ts";
import { recordDelivery } from "../workers/webhooks/delivery-store.ts";
import { claimJob, createJob, failJob, succeedJob } from "../workers/jobs/job-store.ts";
import { problemBody } from "../contracts/problems/catalogue.ts";
import { optimizedImageResult } from "../workers/test-support/job-results.ts";
import { openPlatform } from "../scripts/lib/local-platform.ts";
import { platformFailures, reconcilePlatform } from "../scripts/soak/reconcile.ts";

const persistTo = mkdtempSync(join(tmpdir(), "reconcile-"));
let platform: Awaited<ReturnType<typeof openPlatform>>;

beforeAll(async () => {
  execFileSync("node_modules/.bin/wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], { stdio: "ignore" });
  platform = await openPlatform({ persistTo });
  // An ack purges the edge cache after deleting rows and objects; in Node that is wrangler's stand-in.
  Object.assign(globalThis, { caches: platform.caches });
});

afterAll(async () => {
  await platform?.dispose();
  rmSync(persistTo, { recursive: true, force: true });
});

// Node cannot reach the account shards (Durable Objects run only inside the edge's workerd), and
// the books read only the shared database's report of them: charges and top-ups are written
// there as the shards' ledger feed writes them, each with the balance it leaves.
const fedBooks = new Map<string, { balance: number; seq: number }>();

async function feedCharge(db: D1Database, accountId: string, chargeKey: string, amountMicros: number, operation = "image.transform"): Promise<void> {
  const books = fedBooks.get(accountId) ?? { balance: 0, seq: 0 };
  books.balance -= amountMicros;
  books.seq += 1;
  fedBooks.set(accountId, books);
  const row = { account_id: accountId, charge_key: chargeKey, operation, amount_micros: amountMicros, units: 1, created_at: Date.now() };
  await db.batch(fedLedgerStatements(db, [row], [{ account_id: accountId, balance_micros: books.balance, seq: books.seq }]));
}

async function succeededJob(db: D1Database, accountId: string, result: unknown): Promise<string> {
  const job = await createJob(db, { accountId, keyId: "key_reconcile", operation: "image.optimize", request: {} });
  await claimJob(db, job.id, Date.now(), 60_000);
  await succeedJob(db, job.id, result);
  return job.id;
}

describe("reconciling a succeeded job's stored result", () => {
  it("balances a free job whose result is its operation's, and reports one whose result is not", async () => {
    const db = platform.env.DB;
    const account = await openAccount(db, { name: "reconcile", plan: "free", balanceMicros: 0 });
    // Free and kept only as base64: nothing charged, no file delivered.
    await succeededJob(db, account.id, { ...optimizedImageResult(0), file_id: null, url: null, expires_at: null });
    const malformed = await succeededJob(db, account.id, { billing: { charged_micros: 0 } });

    const books = await reconcilePlatform(db, platform.env.FILES, { jobDeadlineMs: 60_000 });

    expect(books.jobs).toMatchObject({ total: 2, succeeded: 2 });
    expect(books.charges.outputsWithoutCharge).toEqual([`${malformed}: stored result is not a image.optimize result`]);
    expect(platformFailures(books)).toEqual([`outputs without their charge: 1 (${malformed}: stored result is not a image.optimize result)`]);
  });
});

describe("reconciling a failed job", () => {
  it("names it with its operation and its problem, so that a soak's failure can be explained", async () => {
    const db = platform.env.DB;
    const account = await openAccount(db, { name: "reconcile-failed", plan: "free", balanceMicros: 0 });
    const since = Date.now();
    const job = await createJob(db, { accountId: account.id, keyId: "key_reconcile", operation: "pdf.compress", request: {} });
    await claimJob(db, job.id, Date.now(), 60_000);
    await failJob(db, job.id, problemBody("origin_unavailable", "The origin did not answer."));

    const books = await reconcilePlatform(db, platform.env.FILES, { jobDeadlineMs: 60_000, since });

    expect(books.jobs).toMatchObject({ total: 1, failed: 1 });
    expect(books.jobs.failures).toEqual([expect.stringMatching(new RegExp(`^${job.id} pdf\\.compress: .*origin_unavailable.*The origin did not answer`))]);
    expect(platformFailures(books)).toEqual([]);
  });
});

// Ordinary use must balance: a 410 from the endpoint is the documented way to stop a webhook's
// retries. Only a true loss is reported. (Derivatives deleted on purpose, by an ack, a purge or a
// preset's change, are kept in the account shards and balanced in workers/derivatives/derivative-books.test.ts.)
describe("reconciling documented stops", () => {
  const transformPrice = 800;

  async function fundedAccount(name: string) {
    const db = platform.env.DB;
    const account = await openAccount(db, { name, plan: "pro", balanceMicros: 0 });
    await feedCharge(db, account.id, `topup:reconcile-${name}`, -10_000, "account.topup");
    return account;
  }

  /** A live source file as the books see it: its object in R2 and its row in the report its file shard feeds. */
  async function sourceFile(accountId: string) {
    const db = platform.env.DB;
    const id = `file_reconcile${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const r2Key = fileKey(accountId, id);
    await platform.env.FILES.put(r2Key, new Uint8Array([1, 2, 3, 4]));
    const row: FileRow = { id, kind: "source", status: "ready", r2_key: r2Key, filename: null, content_type: "image/png", size_bytes: 4, sha256: null, created_at: Date.now(), expires_at: Date.now() + 3_600_000, deleted_at: null, deleted_reason: null };
    await db.batch(fedFileStatements(db, [{ account_id: accountId, seq: 1, row }]));
    return row;
  }

  it("counts a webhook stopped by the endpoint's 410 as stopped, not lost", async () => {
    const db = platform.env.DB;
    const since = Date.now();
    const account = await openAccount(db, { name: "reconcile-410", plan: "free", balanceMicros: 0 });
    const job = await createJob(db, { accountId: account.id, keyId: "key_reconcile", operation: "image.optimize", request: {}, webhookUrl: "https://hooks.example/gone" });
    await claimJob(db, job.id, Date.now(), 60_000);
    await succeedJob(db, job.id, { ...optimizedImageResult(0), file_id: null, url: null, expires_at: null });
    const attempt = { messageId: `msg_${job.id}`, jobId: job.id, url: "https://hooks.example/gone", attemptedAt: Date.now() };
    await recordDelivery(db, { ...attempt, attempt: 1, outcome: "failed", responseStatus: 503, nextAttemptAt: Date.now() + 1000 });
    await recordDelivery(db, { ...attempt, attempt: 2, outcome: "disabled", responseStatus: 410, nextAttemptAt: null });

    const books = await reconcilePlatform(db, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(books.webhooks).toMatchObject({ endedWithWebhook: 1, stopped: 1, lost: [] });
    expect(platformFailures(books)).toEqual([]);
  });

  // Last: a true loss stays in the shared books for good.
  it("still reports a charge whose output is missing while its file lives, and a webhook that just failed", async () => {
    const db = platform.env.DB;
    const since = Date.now();
    const account = await fundedAccount("lost");
    const file = await sourceFile(account.id);
    const id = { accountId: account.id, fileId: file.id, canonical: "w_40", formatClass: null };
    await feedCharge(db, account.id, transformChargeKey(id), transformPrice);
    const job = await createJob(db, { accountId: account.id, keyId: "key_reconcile", operation: "image.optimize", request: {}, webhookUrl: "https://hooks.example/down" });
    await claimJob(db, job.id, Date.now(), 60_000);
    await succeedJob(db, job.id, { ...optimizedImageResult(0), file_id: null, url: null, expires_at: null });
    await recordDelivery(db, { messageId: `msg_${job.id}`, jobId: job.id, url: "https://hooks.example/down", attemptedAt: Date.now(), attempt: 1, outcome: "failed", responseStatus: 500, nextAttemptAt: null });

    const books = await reconcilePlatform(db, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(books.charges.withoutOutput).toEqual([`transform:${file.id}:w_40`]);
    expect(books.webhooks.lost).toEqual([`${job.id} (attempt 1 failed)`]);
    expect(platformFailures(books)).toEqual([expect.stringMatching(/^charges without an output: 1/), expect.stringMatching(/^webhooks lost: 1/)]);
  });
});
