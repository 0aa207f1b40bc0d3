// The books (scripts/soak/reconcile.ts) read a succeeded job's stored result through its
// operation's schema: a result of another shape is reported, not read as "charged nothing,
// delivered nothing", which a $0 job's empty ledger would otherwise agree with.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAccount } from "../workers/billing/open-account.ts";
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
});

afterAll(async () => {
  await platform?.dispose();
  rmSync(persistTo, { recursive: true, force: true });
});

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
