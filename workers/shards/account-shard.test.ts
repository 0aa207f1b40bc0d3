import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { IDEMPOTENCY_RETENTION_MS } from "../idempotency/shard-idempotency-records.ts";
import { requestFingerprint } from "../idempotency/idempotency-store.ts";
import type { AccountShard } from "./account-shard.ts";
import { accountShard } from "./shard-stub.ts";
import { chargeOnce } from "../billing/charge-once.ts";
import { balanceOf } from "../test-support/account-books.ts";
import { ACCOUNT_SHARD_STEPS, migrateShard } from "./shard-migrations.ts";

const name = (idempotencyKey: string) => ({ keyId: "key_test", idempotencyKey });

describe("AccountShard", () => {
  it("lets exactly one of many claims sent at once hold an Idempotency-Key", async () => {
    const accountId = `acct_${crypto.randomUUID()}`;
    const shard = accountShard(env, accountId);
    const claims = await Promise.all(Array.from({ length: 30 }, () => shard.claimIdempotencyKey(accountId, name("once"), "fp", Date.now())));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it("keeps accounts apart: the same key in another account's shard is claimed on its own", async () => {
    const [a, b] = [`acct_${crypto.randomUUID()}`, `acct_${crypto.randomUUID()}`];
    expect(await accountShard(env, a).claimIdempotencyKey(a, name("k"), "fp", Date.now())).toBe(true);
    expect(await accountShard(env, b).claimIdempotencyKey(b, name("k"), "fp", Date.now())).toBe(true);
    expect(await accountShard(env, b).idempotencyRecord(b, name("other"))).toBeNull();
  });

  it("prunes expired records at its alarm and sets the next one", async () => {
    const accountId = `acct_${crypto.randomUUID()}`;
    const shard = accountShard(env, accountId);
    const now = Date.now();
    await shard.claimIdempotencyKey(accountId, name("old"), "fp", now - IDEMPOTENCY_RETENTION_MS - 1);
    await shard.claimIdempotencyKey(accountId, name("live"), "fp", now);
    expect(await runDurableObjectAlarm(shard)).toBe(true);
    expect(await shard.idempotencyRecord(accountId, name("old"))).toBeNull();
    expect(await shard.idempotencyRecord(accountId, name("live"))).toMatchObject({ state: "running" });
    const alarm = await runInDurableObject(shard, (_instance: AccountShard, state) => state.storage.getAlarm());
    expect(alarm).toBe(now + IDEMPOTENCY_RETENTION_MS);
  });

  it("takes each schema step once: a shard started again keeps its rows", async () => {
    const accountId = `acct_${crypto.randomUUID()}`;
    const shard = accountShard(env, accountId);
    await shard.claimIdempotencyKey(accountId, name("kept"), "fp", Date.now());
    const versions = await runInDurableObject(shard, (_instance: AccountShard, state) => [migrateShard(state.storage, ACCOUNT_SHARD_STEPS), migrateShard(state.storage, ACCOUNT_SHARD_STEPS)]);
    expect(versions).toEqual([ACCOUNT_SHARD_STEPS.length, ACCOUNT_SHARD_STEPS.length]);
    expect(await shard.idempotencyRecord(accountId, name("kept"))).toMatchObject({ fingerprint: "fp" });
  });

  it("upgrades in place: a response recorded in the shared database before the move is replayed, not run again", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const body = JSON.stringify({ source: { base64: "AAAA" } });
    const send = (key: TestCaller, idempotencyKey: string) => api("/v1/image/optimize", { key, body, headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey } });
    // A real answer to record (from another account, so this account's shard is first used after
    // the record is in place), as the shared database held them before the shards.
    const answered = await send(await seedCaller(), "first");
    const recorded = await answered.text();
    const requestId = answered.headers.get("X-Request-Id");
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO idempotency_records (account_id, key_id, idempotency_key, fingerprint, state, response_status, response_headers, response_body, created_at, expires_at) VALUES (?, ?, 'moved', ?, 'done', ?, ?, ?, ?, ?)",
    )
      .bind(caller.accountId, caller.keyId, await requestFingerprint("POST", "/v1/image/optimize", body), answered.status, JSON.stringify({ "content-type": answered.headers.get("Content-Type") }), recorded, now, now + IDEMPOTENCY_RETENTION_MS)
      .run();
    const replayed = await send(caller, "moved");
    expect([replayed.status, replayed.headers.get("Idempotent-Replayed"), await replayed.text()]).toEqual([answered.status, "true", recorded]);
    expect(requestId).not.toBeNull();
  });
});

describe("an account's money, upgraded in place", () => {
  it("takes the balance and charge keys the shared database held before the move, once", async () => {
    const accountId = `acct_${crypto.randomUUID().replaceAll("-", "")}`;
    const now = Date.now();
    // As the shared database held an account before the move: its ledger rows, and the balance its trigger kept.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO accounts (id, name, plan, balance_micros, created_at) VALUES (?, 'moved', 'pro', 7000, ?)").bind(accountId, now),
      env.DB.prepare("INSERT INTO ledger (account_id, charge_key, operation, amount_micros, units, created_at) VALUES (?, 'topup:old', 'account.topup', -10000, 1, ?)").bind(accountId, now),
      env.DB.prepare("INSERT INTO ledger (account_id, charge_key, operation, amount_micros, units, created_at) VALUES (?, 'transform:file_x:w_10', 'image.transform', 3000, 1, ?)").bind(accountId, now),
    ]);
    const charge = { accountId, chargeKey: "transform:file_x:w_10", operation: "image.transform" as const, amountMicros: 3000 };
    expect(await chargeOnce(env, charge)).toBe("already_charged");
    expect(await balanceOf(accountId)).toBe(7000);
    expect(await accountShard(env, accountId).usage(accountId, "operation", now - 1, now + 1)).toEqual([{ operation: "image.transform", count: 1, micros: 3000 }]);
    // Imported rows are the report's already: nothing of them is fed back.
    expect(await runInDurableObject(accountShard(env, accountId), (_shard: AccountShard, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM ledger WHERE fed = 0").one())).toEqual({ n: 0 });
  });

  it("imports the account's jobs and their webhook attempts from the shared database once, and feeds none of them back", async () => {
    const caller = await seedCaller();
    const now = Date.now();
    const jobId = `job_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO jobs (id, account_id, key_id, operation, status, request, result, webhook_url, created_at) VALUES (?, ?, ?, 'xlsx.generate', 'failed', '{}', NULL, 'https://hooks.example/old', ?)").bind(jobId, caller.accountId, caller.keyId, now),
      env.DB.prepare("INSERT INTO webhook_deliveries (message_id, job_id, attempt, url, outcome, response_status, attempted_at) VALUES ('msg_old', ?, 1, 'https://hooks.example/old', 'failed', 500, ?)").bind(jobId, now),
      env.DB.prepare("INSERT INTO webhook_deliveries (message_id, job_id, attempt, url, outcome, response_status, attempted_at) VALUES ('msg_old', ?, 2, 'https://hooks.example/old', 'delivered', 200, ?)").bind(jobId, now),
    ]);
    const shard = accountShard(env, caller.accountId);
    const found = await shard.job(caller.accountId, jobId);
    expect(found).toMatchObject({ job: { id: jobId, status: "failed", webhookUrl: "https://hooks.example/old" }, deliveries: [{ attempt: 1, outcome: "failed" }, { attempt: 2, outcome: "delivered" }] });
    // A row the shared database gets afterwards is not imported again.
    await env.DB.prepare("INSERT INTO jobs (id, account_id, key_id, operation, status, request, created_at) VALUES (?, ?, ?, 'xlsx.generate', 'queued', '{}', ?)").bind(`${jobId}x`, caller.accountId, caller.keyId, now).run();
    expect(await shard.job(caller.accountId, `${jobId}x`)).toBeNull();
    const unfed = await runInDurableObject(shard, (_instance: AccountShard, state) => state.storage.sql.exec("SELECT count(*) AS n FROM job_changes").one().n);
    expect(unfed).toBe(0);
  });
});

describe("a branch of an account's shard", () => {
  it("imports nothing the shared database holds: the account's history is its first shard's", async () => {
    const caller = await seedCaller({ balanceMicros: 5_000 });
    const now = Date.now();
    const fileId = "file_branch_import";
    await env.DB.prepare(
      "INSERT INTO derivatives (account_id, file_id, canonical, format_class, r2_key, etag, bytes, content_type, created_at) VALUES (?, ?, 'w_10', '', 'k', '\"e\"', 3, 'image/webp', ?)",
    )
      .bind(caller.accountId, fileId, now)
      .run();
    const name = { fileId, canonical: "w_10", formatClass: "" as const };
    const branch = accountShard(env, caller.accountId, 3);
    expect(await branch.heldMicros(caller.accountId, null)).toBe(0);
    expect(await branch.ledger(caller.accountId)).toEqual([]);
    expect((await branch.storedDerivative(caller.accountId, name)).row).toBeNull();
    expect((await accountShard(env, caller.accountId).storedDerivative(caller.accountId, name)).row?.etag).toBe('"e"');
    expect(await accountShard(env, caller.accountId).balance(caller.accountId, Number.POSITIVE_INFINITY)).toBe(5_000);
  });
});
