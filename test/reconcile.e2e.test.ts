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
import { fedDeliveryStatements, type FedDelivery } from "../workers/webhooks/d1-deliveries.ts";
import { fedJobStatements } from "../workers/jobs/d1-jobs.ts";
import { deliveredByJob } from "../workers/jobs/delivered-by-job.ts";
import type { JobOperation } from "../contracts/operations.ts";
import { problemBody, type ProblemBody } from "../contracts/problems/catalogue.ts";
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
  await db.batch(fedLedgerStatements(db, [row], [{ account_id: accountId, balance_micros: books.balance, seq: books.seq, branch: 0 }]));
}

let jobCount = 0;

/** A job that ended, as the books see it: its row and its webhook's attempts in the report its account's shard feeds. */
async function reportedJob(
  db: D1Database,
  accountId: string,
  end: { operation?: JobOperation; result?: object; error?: ProblemBody; webhookUrl?: string; attempts?: Omit<FedDelivery, "job_id" | "message_id" | "url">[] },
): Promise<string> {
  const id = `job_reconcile${String(++jobCount).padStart(7, "0")}`;
  const operation = end.operation ?? "image.optimize";
  const now = Date.now();
  const row = {
    id,
    key_id: "key_reconcile",
    operation,
    status: end.error ? "failed" : "succeeded",
    error: end.error ?? null,
    delivered: end.error ? null : deliveredByJob(operation, end.result),
    attempts: 1,
    webhook_url: end.webhookUrl ?? null,
    created_at: now,
    started_at: now,
    finished_at: now,
  };
  const attempts = (end.attempts ?? []).map((attempt) => ({ ...attempt, job_id: id, message_id: `msg_${id}`, url: end.webhookUrl! }));
  await db.batch([...fedJobStatements(db, [{ account_id: accountId, seq: 1, row }]), ...fedDeliveryStatements(db, attempts)]);
  return id;
}

function succeededJob(db: D1Database, accountId: string, result: object): Promise<string> {
  return reportedJob(db, accountId, { result });
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

describe("reconciling a job the shared database held before jobs moved into the shards", () => {
  it("reads what it charged from its stored result", async () => {
    const db = platform.env.DB;
    const account = await openAccount(db, { name: "reconcile-old-job", plan: "free", balanceMicros: 0 });
    const since = Date.now();
    const id = "job_reconcileold00000001";
    await db
      .prepare("INSERT INTO jobs (id, account_id, key_id, operation, status, request, result, created_at, finished_at) VALUES (?, ?, 'key_reconcile', 'image.optimize', 'succeeded', '{}', ?, ?, ?)")
      .bind(id, account.id, JSON.stringify({ ...optimizedImageResult(800), file_id: null, url: null, expires_at: null }), since, since)
      .run();

    const books = await reconcilePlatform(db, platform.env.FILES, { jobDeadlineMs: 60_000, since });

    expect(books.charges.outputsWithoutCharge).toEqual([`${id}: result says 800, ledger 0`]);
  });
});

describe("reconciling a failed job", () => {
  it("names it with its operation and its problem, so that a soak's failure can be explained", async () => {
    const db = platform.env.DB;
    const account = await openAccount(db, { name: "reconcile-failed", plan: "free", balanceMicros: 0 });
    const since = Date.now();
    const job = { id: await reportedJob(db, account.id, { operation: "pdf.compress", error: problemBody("origin_unavailable", "The origin did not answer.") }) };

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
    const attempt = { error: null, attempted_at: Date.now() };
    await reportedJob(db, account.id, {
      result: { ...optimizedImageResult(0), file_id: null, url: null, expires_at: null },
      webhookUrl: "https://hooks.example/gone",
      attempts: [
        { ...attempt, attempt: 1, outcome: "failed", response_status: 503, next_attempt_at: Date.now() + 1000 },
        { ...attempt, attempt: 2, outcome: "disabled", response_status: 410, next_attempt_at: null },
      ],
    });

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
    const job = {
      id: await reportedJob(db, account.id, {
        result: { ...optimizedImageResult(0), file_id: null, url: null, expires_at: null },
        webhookUrl: "https://hooks.example/down",
        attempts: [{ attempt: 1, outcome: "failed", response_status: 500, error: null, attempted_at: Date.now(), next_attempt_at: null }],
      }),
    };

    const books = await reconcilePlatform(db, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(books.charges.withoutOutput).toEqual([`transform:${file.id}:w_40`]);
    expect(books.webhooks.lost).toEqual([`${job.id} (attempt 1 failed)`]);
    expect(platformFailures(books)).toEqual([expect.stringMatching(/^charges without an output: 1/), expect.stringMatching(/^webhooks lost: 1/)]);
  });
});
