import { env } from "cloudflare:test";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { describe, expect, it } from "vitest";
import { decodeBase64 } from "../../contracts/encoding/base64.ts";
import { durableStorageQuotaBytes } from "../accounts/plan-limits.ts";
import { insertPendingFile, storeFile } from "../files/file-store.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { ledgerOf } from "../test-support/account-books.ts";

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const HOUR = 3_600_000;

interface FileBody {
  file_id: string;
  status: string;
  kind: string;
  content_type: string;
  size_bytes: number;
  expires_at: string | null;
  created_at: string;
  download_url: string;
}

function createFile(caller: TestCaller | string, json: unknown, headers: Record<string, string> = {}) {
  return api("/v1/files", { key: caller, json, headers });
}

async function fileRows(accountId: string): Promise<{ id: string; status: string; expires_at: number | null }[]> {
  return fileShardRows(accountId, "SELECT id, status, expires_at FROM files WHERE status != 'deleted'");
}

async function ledgerCount(accountId: string): Promise<number> {
  return (await ledgerOf(accountId, (row) => row.operation !== "account.topup")).length;
}

describe("POST /v1/files", () => {
  it("stores a durable file (expires_at null) whose signed link serves the bytes", async () => {
    const caller = await seedCaller();
    const res = await createFile(caller, { source: { base64: PNG_1X1 }, expires_at: null });
    expect(res.status).toBe(201);
    const file = await res.json<FileBody>();
    expect(file).toMatchObject({ status: "ready", kind: "source", content_type: "image/png", size_bytes: 70, expires_at: null });
    expect(Date.parse(file.created_at)).toBeLessThanOrEqual(Date.now());
    const row = (await fileRows(caller.accountId)).find((r) => r.id === file.file_id)!;
    expect(row).toMatchObject({ status: "ready", expires_at: null });
    const download = await api(new URL(file.download_url).pathname + new URL(file.download_url).search);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(decodeBase64(PNG_1X1));
  });

  it("keeps an omitted expires_at at the account's retention, and a given time as given", async () => {
    const caller = await seedCaller();
    const before = Date.now();
    const retained = await (await createFile(caller, { source: { base64: PNG_1X1 } })).json<FileBody>();
    const expiry = Date.parse(retained.expires_at!);
    expect(expiry).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
    const at = new Date(Date.now() + 2 * HOUR).toISOString();
    const timed = await (await createFile(caller, { source: { base64: PNG_1X1 }, expires_at: at })).json<FileBody>();
    expect(timed.expires_at).toBe(at);
  });

  it("copies a file of the account given as {file_id}, durable, with its own id", async () => {
    const caller = await seedCaller();
    const png = decodeBase64(PNG_1X1);
    const upload = await storeFile(env, { accountId: caller.accountId, kind: "source", body: png, size: png.length, contentType: "image/png", filename: "dot.png", expiresAt: Date.now() + HOUR });
    const res = await createFile(caller, { source: { file_id: upload.id }, expires_at: null });
    expect(res.status).toBe(201);
    const copy = await res.json<FileBody & { filename: string }>();
    expect(copy.file_id).not.toBe(upload.id);
    expect(copy).toMatchObject({ filename: "dot.png", expires_at: null, size_bytes: png.length });
    const object = await env.FILES.get(`accounts/${caller.accountId}/${copy.file_id}`);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(png);
  });

  it("honours Idempotency-Key: a retry replays the same file and stores nothing more", async () => {
    const caller = await seedCaller();
    const headers = { "Idempotency-Key": "store-hero-1" };
    const first = await createFile(caller, { source: { base64: PNG_1X1 }, expires_at: null }, headers);
    const again = await createFile(caller, { source: { base64: PNG_1X1 }, expires_at: null }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await again.json<FileBody>()).file_id).toBe((await first.json<FileBody>()).file_id);
    expect(await fileRows(caller.accountId)).toHaveLength(1);
    const reused = await createFile(caller, { source: { base64: PNG_1X1 } }, headers);
    expect((await problemOf(reused)).status).toBe(422);
  });

  it("refuses what is not an image or PDF (415) and an expires_at in the past or past retention (400), storing nothing", async () => {
    const caller = await seedCaller();
    const html = btoa("<!doctype html><title>404</title>");
    const wrongType = await problemOf(await createFile(caller, { source: { base64: html }, expires_at: null }));
    expect(wrongType).toMatchObject({ status: 415, type: "https://pixelpress.dev/problems/unsupported_media_type" });
    for (const expires_at of [new Date(Date.now() - 1000).toISOString(), new Date(Date.now() + 48 * HOUR).toISOString(), "tomorrow"]) {
      const problem = await problemOf(await createFile(caller, { source: { base64: PNG_1X1 }, expires_at }));
      expect(problem.status, expires_at).toBe(400);
      expect(problem.errors?.[0]?.pointer, expires_at).toMatch(/expires_at/);
    }
    expect(await fileRows(caller.accountId)).toEqual([]);
  });

  it("refuses a durable file past the plan's quota with 413: nothing stored, nothing charged", async () => {
    const caller = await seedCaller({ plan: "free" });
    const quota = durableStorageQuotaBytes.free;
    // An upload declared durable reserves its size until it completes or expires.
    const reserved = await insertPendingFile(env, { accountId: caller.accountId, kind: "source", contentType: "image/png", sizeBytes: quota - 10, expiresAt: null });
    const ledgerBefore = await ledgerCount(caller.accountId);
    const problem = await problemOf(await createFile(caller, { source: { base64: PNG_1X1 }, expires_at: null }));
    expect(problem).toMatchObject({ status: 413, type: "https://pixelpress.dev/problems/storage_quota_exceeded", quota_bytes: quota, used_bytes: quota - 10 });
    expect((await fileRows(caller.accountId)).map((r) => r.id)).toEqual([reserved.id]);
    expect((await env.FILES.list({ prefix: `accounts/${caller.accountId}/` })).objects).toEqual([]);
    expect(await ledgerCount(caller.accountId)).toBe(ledgerBefore);
    // The same bytes expiring are not durable storage, and fit.
    expect((await createFile(caller, { source: { base64: PNG_1X1 } })).status).toBe(201);
  });

  it("needs a key with the files scope, and never reads another account's file", async () => {
    const caller = await seedCaller({ scopes: ["images"] });
    expect((await problemOf(await createFile(caller, { source: { base64: PNG_1X1 } }))).status).toBe(403);
    expect((await problemOf(await createFile("ak_live_nope", { source: { base64: PNG_1X1 } }))).status).toBe(401);
    const other = await seedCaller();
    const png = decodeBase64(PNG_1X1);
    const theirs = await storeFile(env, { accountId: other.accountId, kind: "source", body: png, size: png.length, contentType: "image/png", expiresAt: null });
    const mine = await seedCaller();
    expect((await problemOf(await createFile(mine, { source: { file_id: theirs.id }, expires_at: null }))).status).toBe(404);
    expect(await fileRows(mine.accountId)).toEqual([]);
  });
});
