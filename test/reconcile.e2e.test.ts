// The books (scripts/soak/reconcile.ts) read a succeeded job's stored result through its
// operation's schema: a result of another shape is reported, not read as "charged nothing,
// delivered nothing", which a $0 job's empty ledger would otherwise agree with.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAccount } from "../workers/billing/open-account.ts";
import { transformChargeKey } from "../workers/billing/charge-key.ts";
import { recordFed } from "../workers/billing/d1-ledger.ts";
import { deleteFile, purgeFiles } from "../workers/files/file-lifecycle.ts";
import { recordPresetDerivative } from "../workers/presets/preset-derivative-store.ts";
import { purgePreset } from "../workers/presets/purge-preset.ts";
import { storeFile } from "../workers/files/file-store.ts";
import { storeDerivative } from "../workers/derivatives/derivative-store.ts";
import { storeMezzanine } from "../workers/derivatives/mezzanine-store.ts";
import { currentOriginal } from "../workers/origins/origin-original.ts";
import { createOrigin } from "../workers/origins/origin-store.ts";
import { purgeOrigin } from "../workers/origins/purge-origin.ts";
import { originRecordFor } from "../workers/origins/register-origin.ts";
import { generatedFile } from "./fixtures/generated-files.ts";
import { recordDelivery } from "../workers/webhooks/delivery-store.ts";
import { claimJob, createJob, failJob, succeedJob } from "../workers/jobs/job-store.ts";
import { problemBody } from "../contracts/problems/catalogue.ts";
import { optimizedImageResult } from "../workers/test-support/job-results.ts";
import { openPlatform } from "../scripts/lib/local-platform.ts";
import { platformFailures, reconcilePlatform } from "../scripts/soak/reconcile.ts";

const persistTo = mkdtempSync(join(tmpdir(), "reconcile-"));
let platform: Awaited<ReturnType<typeof openPlatform>>;
// The edge's variables beside the stores: cache keys are named on the public host, and the origin
// stand-in below is on loopback. No Cloudflare zone: a purge stays in this (stand-in) cache.
const edgeEnv = () => ({ ...platform.env, PUBLIC_BASE_URL: "http://api.test", ALLOW_LOOPBACK_URLS: "true", SIGNING_SECRET: "reconcile-signing-secret", CF_API_BASE_URL: "" });

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
  await recordFed(db, [row], [{ account_id: accountId, balance_micros: books.balance, seq: books.seq }]);
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

// Ordinary use must balance: ack deletes a file's derivatives on purpose, and a 410 from the
// endpoint is the documented way to stop a webhook's retries. Only a true loss is reported.
describe("reconciling deliberate deletions and documented stops", () => {
  const transformPrice = 800;

  async function fundedAccount(name: string) {
    const db = platform.env.DB;
    const account = await openAccount(db, { name, plan: "pro", balanceMicros: 0 });
    await feedCharge(db, account.id, `topup:reconcile-${name}`, -10_000, "account.topup");
    return account;
  }

  async function sourceFile(accountId: string) {
    const body = new Uint8Array([1, 2, 3, 4]);
    return storeFile(platform.env, { accountId, kind: "source", body, size: body.length, contentType: "image/png", expiresAt: Date.now() + 3_600_000 });
  }

  async function chargedDerivative(accountId: string, fileId: string, canonical: string, bytes: Uint8Array, etag: string) {
    const id = { accountId, fileId, canonical, formatClass: null };
    const charge = () => feedCharge(platform.env.DB, accountId, transformChargeKey(id), transformPrice);
    await storeDerivative(platform.env, id, { body: bytes, size: bytes.length, contentType: "image/webp", etag }, charge);
  }

  it("balances after an ack deleted a file's derivatives, those of equal bytes included", async () => {
    const since = Date.now();
    const account = await fundedAccount("ack");
    const file = await sourceFile(account.id);
    await chargedDerivative(account.id, file.id, "w_20", new Uint8Array([7, 7]), '"same"');
    await chargedDerivative(account.id, file.id, "w_20,anim_false", new Uint8Array([7, 7]), '"same"');
    await chargedDerivative(account.id, file.id, "w_30", new Uint8Array([8]), '"other"');
    const before = await reconcilePlatform(platform.env.DB, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(before.charges.rows).toBeGreaterThanOrEqual(3);
    expect(platformFailures(before)).toEqual([]);

    await deleteFile(edgeEnv(), account.id, file.id);
    const after = await reconcilePlatform(platform.env.DB, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(after.charges.withoutOutput).toEqual([]);
    expect(after.charges.deletedOutputs).toEqual(expect.arrayContaining([`transform:${file.id}:w_20`, `transform:${file.id}:w_30`]));
    expect(platformFailures(after)).toEqual([]);
  });

  it("balances after a purge of files and a preset's change dropped derivatives of a file that lives on", async () => {
    const since = Date.now();
    const account = await fundedAccount("purge");
    const file = await sourceFile(account.id);
    await chargedDerivative(account.id, file.id, "w_20", new Uint8Array([7, 7]), '"purged"');
    await purgeFiles(edgeEnv(), account.id, [file.id]);
    const afterPurge = await reconcilePlatform(platform.env.DB, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(afterPurge.charges.withoutOutput).toEqual([]);
    expect(afterPurge.charges.deletedOutputs).toEqual(expect.arrayContaining([`transform:${file.id}:w_20`]));
    expect(platformFailures(afterPurge)).toEqual([]);

    await chargedDerivative(account.id, file.id, "w_50", new Uint8Array([9]), '"preset"');
    const identity = { accountId: account.id, fileId: file.id, canonical: "w_50", formatClass: null };
    await recordPresetDerivative(platform.env.DB, "thumb", { identity, cacheUrl: "http://api.test/v1/image/t/~cache/thumb" });
    expect(await purgePreset(edgeEnv(), account.id, "thumb")).toMatchObject({ derivatives: 1 });
    const afterPreset = await reconcilePlatform(platform.env.DB, platform.env.FILES, { jobDeadlineMs: 60_000, since });
    expect(afterPreset.charges.withoutOutput).toEqual([]);
    expect(afterPreset.charges.deletedOutputs).toEqual(expect.arrayContaining([`transform:${file.id}:w_50`]));
    expect(platformFailures(afterPreset)).toEqual([]);
  });

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

  describe("an origin-served transform", () => {
    let server: Server;
    let baseUrl: string;
    beforeAll(async () => {
      const png = await generatedFile("rgb.png");
      server = createServer((_req, res) => res.writeHead(200, { "Content-Type": "image/png", "Cache-Control": "max-age=3600" }).end(png));
      await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

    it("balances with its original, derivative and mezzanine kept; reports planted orphans and a lost charge; balances again after a purge", async () => {
      const since = Date.now();
      const env = edgeEnv();
      const account = await fundedAccount("origin");
      const origin = await createOrigin(env.DB, await originRecordFor(env, account.id, { name: "shop", base_url: baseUrl }));
      // Fetched through the guard and kept in R2 under accounts/*/origins/…, as the transform path does.
      const { object, sourceId } = await currentOriginal(env, origin, "/photo.png");
      expect(object.r2_key).toMatch(new RegExp(`^accounts/${account.id}/origins/${origin.id}/`));
      await chargedDerivative(account.id, sourceId, "w_30", new Uint8Array([5, 6]), '"origin-w30"');
      await storeMezzanine(env.FILES, sourceId, new Uint8Array([1, 2, 3]), { format: "png", width: 2, height: 2, original: { width: 2, height: 2, format: "png", hasAlpha: false } });

      const clean = await reconcilePlatform(env.DB, env.FILES, { jobDeadlineMs: 60_000, since });
      expect(clean.charges.rows).toBeGreaterThan(0);
      expect(platformFailures(clean)).toEqual([]);

      // An original and a mezzanine no row accounts for, and a charge for the current version whose output is gone.
      const orphanOriginal = `accounts/${account.id}/origins/${origin.id}/%2Fghost.png/${"0".repeat(20)}`;
      const orphanMezzanine = `mezzanine/${origin.id}/${"a".repeat(24)}/${"b".repeat(20)}`;
      for (const key of [orphanOriginal, orphanMezzanine]) await env.FILES.put(key, new Uint8Array([9]));
      const lost = transformChargeKey({ fileId: sourceId, canonical: "w_99", formatClass: null });
      await feedCharge(env.DB, account.id, lost, transformPrice);
      const planted = await reconcilePlatform(env.DB, env.FILES, { jobDeadlineMs: 60_000, since });
      expect(planted.storage.objectsWithoutRow.sort()).toEqual([orphanOriginal, orphanMezzanine].sort());
      expect(planted.charges.withoutOutput).toEqual([lost]);
      for (const key of [orphanOriginal, orphanMezzanine]) await env.FILES.delete(key);

      // A purge takes the version's original, derivative and mezzanine: its charges were for outputs deleted on purpose.
      expect(await purgeOrigin(env, origin, { paths: ["/photo.png"] })).toMatchObject({ originals: 1, derivatives: 1 });
      const purged = await reconcilePlatform(env.DB, env.FILES, { jobDeadlineMs: 60_000, since });
      expect(purged.charges.deletedOutputs).toEqual(expect.arrayContaining([transformChargeKey({ fileId: sourceId, canonical: "w_30", formatClass: null }), lost]));
      expect(platformFailures(purged)).toEqual([]);
    });
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
