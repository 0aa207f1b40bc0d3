// `npm start` on state written before the money moved into the account shards: the shared
// database as migrations 0000 to 0012 left it, an account's balance kept by the ledger's trigger.
// After the upgrade (migration 0013 and each shard's one-time import) the account keeps its key,
// balance, usage and charge keys, a new charge moves the balance from there, and the shared
// ledger report ends equal to the shard; its durable files and its origins, with the originals kept
// from them, are still there. Jobs made the old way, their rows and webhook attempts in the shared
// database, are shown from the account's shard, and a queued one still runs from a message that
// names only the job, as the old code enqueued it.
import { execFileSync } from "node:child_process";
import sharp from "sharp";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../workers/keys/key-store.ts";
import { optimizedImageResult } from "../workers/test-support/job-results.ts";
import { openPlatform } from "../scripts/lib/local-platform.ts";
import { ledgerFeedSettled } from "../scripts/soak/ledger-feed-settled.ts";
import { generatedFile } from "./fixtures/generated-files.ts";
import { startServicePair, type ServicePair } from "./support/service-pair.ts";

const FIRST_MIGRATION_OF_THE_MOVE = "0013_money_in_shards.sql";
const ACCOUNT = "acct_upgradedbeforeshards";
const OLD_CHARGE = "transform:file_oldfile0000000000000:w_10";
const OLD_FILE = "file_keptacrosstheupgrade";
const OLD_FILE_BYTES = new TextEncoder().encode("a durable file stored before the move");
const OLD_ORIGIN = "orig_keptacrosstheupgrade";
// Another account, whose jobs were made the old way.
const JOB_ACCOUNT = "acct_jobsbeforetheshards";
const OLD_PHOTO = "file_photobeforetheshard";
const ENDED_JOB = "job_endedbeforetheshard1";
const QUEUED_JOB = "job_queuedbeforetheshard";

let pair: ServicePair;
let secret: string;
let keyId: string;
let jobSecret: string;
const scratch = mkdtempSync(join(tmpdir(), "upgrade-in-place-"));

/** The shared database as the migrations before the move made it, with wrangler.toml's database. */
function migrateToBeforeTheMove(persistTo: string): void {
  const migrations = join(scratch, "migrations");
  cpSync("migrations", migrations, { recursive: true });
  const moved = readdirSync(migrations).filter((name) => name.endsWith(".sql") && name >= FIRST_MIGRATION_OF_THE_MOVE);
  for (const name of moved) rmSync(join(migrations, name));
  const config = join(scratch, "wrangler.json");
  writeFileSync(
    config,
    JSON.stringify({
      name: "pixelpress-edge",
      compatibility_date: "2026-11-01",
      d1_databases: [{ binding: "DB", database_name: "pixelpress", database_id: "00000000-0000-0000-0000-000000000000", migrations_dir: migrations }],
    }),
  );
  execFileSync(resolve("node_modules/.bin/wrangler"), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo, "--config", config], { stdio: "ignore" });
}

beforeAll(async () => {
  const persistTo = mkdtempSync(join(tmpdir(), "pixelpress-upgrade-"));
  migrateToBeforeTheMove(persistTo);
  const platform = await openPlatform({ persistTo });
  try {
    const db = platform.env.DB;
    const now = Date.now();
    // As the old code wrote them: the trigger (0001) moves the balance with each ledger row.
    await db.batch([
      db.prepare("INSERT INTO accounts (id, name, plan, created_at) VALUES (?, 'before the move', 'pro', ?)").bind(ACCOUNT, now),
      db.prepare("INSERT INTO ledger (account_id, charge_key, operation, amount_micros, units, created_at) VALUES (?, 'topup:old-invoice', 'account.topup', -50000, 1, ?)").bind(ACCOUNT, now),
      db.prepare("INSERT INTO ledger (account_id, charge_key, operation, amount_micros, units, created_at) VALUES (?, ?, 'image.transform', 800, 1, ?)").bind(ACCOUNT, OLD_CHARGE, now),
    ]);
    expect(await db.prepare("SELECT balance_micros FROM accounts WHERE id = ?").bind(ACCOUNT).first("balance_micros")).toBe(49_200);
    // A durable file as the old code kept it: its row in D1, its object in R2.
    const r2Key = `accounts/${ACCOUNT}/${OLD_FILE}`;
    await platform.env.FILES.put(r2Key, OLD_FILE_BYTES);
    await db
      .prepare("INSERT INTO files (id, account_id, kind, status, r2_key, filename, content_type, size_bytes, created_at, expires_at) VALUES (?, ?, 'source', 'ready', ?, 'kept.txt', 'text/plain', ?, ?, NULL)")
      .bind(OLD_FILE, ACCOUNT, r2Key, OLD_FILE_BYTES.length, now)
      .run();
    // A remote origin as the old code kept it, with a path's original fetched a moment ago: fresh,
    // so it is served from R2 without asking the origin (whose address answers nothing).
    const original = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 200, b: 20 } } }).png().toBuffer();
    const originalKey = `accounts/${ACCOUNT}/origins/${OLD_ORIGIN}/%2Fphoto.png/v-old`;
    await platform.env.FILES.put(originalKey, original);
    await db.batch([
      db.prepare("INSERT INTO origins (id, account_id, name, kind, base_url, created_at) VALUES (?, ?, 'shop', 'http', 'https://images.invalid/', ?)").bind(OLD_ORIGIN, ACCOUNT, now),
      db
        .prepare(
          "INSERT INTO origin_objects (origin_id, path, account_id, status, version, r2_key, size_bytes, content_type, lifetime_seconds, fresh_until, fetched_at) VALUES (?, '/photo.png', ?, 'ready', 'v-old', ?, ?, 'image/png', 86400, ?, ?)",
        )
        .bind(OLD_ORIGIN, ACCOUNT, originalKey, original.length, now + 86_400_000, now),
    ]);
    const key = await createKey(db, ACCOUNT, { name: "kept across the upgrade", scopes: null });
    [secret, keyId] = [key.secret, key.record.id];
    jobSecret = await oldJobs(db, platform.env.FILES, now);
  } finally {
    await platform.dispose();
  }
  pair = await startServicePair(undefined, 150_000, [], persistTo);
}, 240_000);

/** A photo, a job that ended with its webhook delivered, and a queued job, written as the old code wrote them; the account's key. */
async function oldJobs(db: D1Database, files: R2Bucket, now: number): Promise<string> {
  const photo = await generatedFile("landscape-3.jpg");
  const r2Key = `accounts/${JOB_ACCOUNT}/${OLD_PHOTO}`;
  await files.put(r2Key, photo);
  const job = "INSERT INTO jobs (id, account_id, key_id, operation, status, request, result, attempts, webhook_url, webhook_secret_sealed, created_at, finished_at) VALUES (?, ?, 'key_old', 'image.optimize', ?, ?, ?, ?, ?, ?, ?, ?)";
  await db.batch([
    db.prepare("INSERT INTO accounts (id, name, plan, created_at) VALUES (?, 'jobs before the move', 'pro', ?)").bind(JOB_ACCOUNT, now),
    db.prepare("INSERT INTO ledger (account_id, charge_key, operation, amount_micros, units, created_at) VALUES (?, 'topup:old-jobs', 'account.topup', -50000, 1, ?)").bind(JOB_ACCOUNT, now),
    db
      .prepare("INSERT INTO files (id, account_id, kind, status, r2_key, filename, content_type, size_bytes, created_at, expires_at) VALUES (?, ?, 'source', 'ready', ?, 'photo.jpg', 'image/jpeg', ?, ?, ?)")
      .bind(OLD_PHOTO, JOB_ACCOUNT, r2Key, photo.length, now, now + 86_400_000),
    db.prepare(job).bind(ENDED_JOB, JOB_ACCOUNT, "succeeded", "{}", JSON.stringify(optimizedImageResult(800)), 1, "https://hooks.example/old", "sealed", now, now),
    db
      .prepare("INSERT INTO webhook_deliveries (message_id, job_id, attempt, url, outcome, response_status, attempted_at) VALUES (?, ?, 1, 'https://hooks.example/old', 'delivered', 204, ?)")
      .bind(`msg_${ENDED_JOB.slice(4)}`, ENDED_JOB, now),
    db.prepare(job).bind(QUEUED_JOB, JOB_ACCOUNT, "queued", JSON.stringify({ source_file_id: OLD_PHOTO, options: { width: 64, format: "webp" }, base_url: "http://127.0.0.1" }), null, 0, null, null, now, null),
  ]);
  return (await createKey(db, JOB_ACCOUNT, { name: "jobs kept across the upgrade", scopes: null })).secret;
}

afterAll(async () => {
  await pair?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const auth = () => ({ Authorization: `Bearer ${secret}` });

describe("npm start on state from before the money moved into the shards", () => {
  it("keeps the account's files: listed, described and downloadable from its file shard", async () => {
    const listed = await (await fetch(`${pair.edgeUrl}/v1/files`, { headers: auth() })).json<{ data: { file_id: string }[] }>();
    expect(listed.data.map((file) => file.file_id)).toEqual([OLD_FILE]);
    const file = await (await fetch(`${pair.edgeUrl}/v1/files/${OLD_FILE}`, { headers: auth() })).json<{ status: string; expires_at: null; download_url: string }>();
    expect(file).toMatchObject({ status: "ready", expires_at: null });
    const download = await fetch(file.download_url.replace(/^https?:\/\/[^/]+/, pair.edgeUrl));
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(OLD_FILE_BYTES);
    const account = await (await fetch(`${pair.edgeUrl}/v1/account`, { headers: auth() })).json<{ storage: { durable_files: number; durable_bytes: number } }>();
    expect(account.storage).toMatchObject({ durable_files: 1, durable_bytes: OLD_FILE_BYTES.length });
  });

  it("keeps the account's key, balance and usage, charges from there, and feeds the report to the same books", async () => {
    const account = await (await fetch(`${pair.edgeUrl}/v1/account`, { headers: auth() })).json<{ account_id: string; balance_micros: number }>();
    expect(account).toMatchObject({ account_id: ACCOUNT, balance_micros: 49_200 });
    const today = new Date().toISOString().slice(0, 10);
    const usage = await (await fetch(`${pair.edgeUrl}/v1/usage?from=${today}&to=${today}&group_by=operation`, { headers: auth() })).json<{ data: unknown[] }>();
    expect(usage.data).toEqual([{ operation: "image.transform", count: 1, micros: 800 }]);

    const optimized = await fetch(`${pair.edgeUrl}/v1/image/optimize`, {
      method: "POST",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: JSON.stringify({ source: { base64: Buffer.from(await generatedFile("landscape-3.jpg")).toString("base64") }, options: { width: 64 } }),
    });
    expect(optimized.status).toBe(200);
    const charged = (await optimized.json<{ billing: { charged_micros: number } }>()).billing.charged_micros;
    expect(charged).toBeGreaterThan(0);
    const after = (await (await fetch(`${pair.edgeUrl}/v1/account`, { headers: auth() })).json<{ balance_micros: number }>()).balance_micros;
    expect(after).toBe(49_200 - charged);

    const platform = await openPlatform({ persistTo: pair.persistTo });
    try {
      await ledgerFeedSettled(platform.env.DB);
      const rows = await platform.env.DB.prepare("SELECT charge_key FROM ledger WHERE account_id = ? ORDER BY id").bind(ACCOUNT).all<{ charge_key: string }>();
      expect(rows.results.map((row) => row.charge_key)).toEqual(["topup:old-invoice", OLD_CHARGE, expect.stringMatching(/^req:/)]);
      expect(await platform.env.DB.prepare("SELECT balance_micros FROM accounts WHERE id = ?").bind(ACCOUNT).first("balance_micros")).toBe(after);
    } finally {
      await platform.dispose();
    }
  });

  it("keeps the account's origins and the originals it kept from them", async () => {
    const listed = await (await fetch(`${pair.edgeUrl}/v1/origins`, { headers: auth() })).json<{ data: { name: string }[] }>();
    expect(listed.data.map((origin) => origin.name)).toEqual(["shop"]);
    const served = await fetch(`${pair.edgeUrl}/v1/image/t/${keyId}/w_16,f_png/shop/photo.png`);
    expect(served.status, await served.clone().text()).toBe(200);
    const { data, info } = await sharp(new Uint8Array(await served.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, data[1]! > 150]).toEqual([16, true]);
  });

  it("keeps the account's jobs with their webhook attempts, and runs a queued one from a message naming only the job", async () => {
    const jobAuth = { Authorization: `Bearer ${jobSecret}` };
    const ended = await (await fetch(`${pair.edgeUrl}/v1/jobs/${ENDED_JOB}`, { headers: jobAuth })).json<{ status: string; result: unknown; webhook: { deliveries: unknown[] } }>();
    expect(ended).toMatchObject({ status: "succeeded", result: { billing: { charged_micros: 800 } }, webhook: { deliveries: [{ attempt: 1, outcome: "delivered", response_status: 204 }] } });

    // The development path sends { kind: "job", job_id }: the message the old code enqueued.
    expect((await fetch(`${pair.edgeUrl}/__dev/jobs/${QUEUED_JOB}/redeliver`, { method: "POST" })).status).toBe(202);
    const view = () => fetch(`${pair.edgeUrl}/v1/jobs/${QUEUED_JOB}`, { headers: jobAuth }).then((res) => res.json<{ status: string; result?: { format: string; billing: { charged_micros: number } } }>());
    await expect.poll(async () => (await view()).status, { timeout: 60_000, interval: 250 }).toBe("succeeded");
    const ran = await view();
    expect(ran.result).toMatchObject({ format: "webp" });
    const account = await (await fetch(`${pair.edgeUrl}/v1/account`, { headers: jobAuth })).json<{ balance_micros: number }>();
    expect(account.balance_micros).toBe(50_000 - ran.result!.billing.charged_micros);

    const platform = await openPlatform({ persistTo: pair.persistTo });
    try {
      await ledgerFeedSettled(platform.env.DB);
      const reported = await platform.env.DB.prepare("SELECT id, status, fed_seq > 0 AS fed FROM jobs WHERE account_id = ? ORDER BY id").bind(JOB_ACCOUNT).all();
      expect(reported.results).toEqual([
        { id: ENDED_JOB, status: "succeeded", fed: 0 },
        { id: QUEUED_JOB, status: "succeeded", fed: 1 },
      ]);
    } finally {
      await platform.dispose();
    }
  });
});
