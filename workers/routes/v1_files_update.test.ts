import { env } from "cloudflare:test";
import { fileReportFed } from "../test-support/file-report.ts";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { describe, expect, it } from "vitest";
import { durableStorageQuotaBytes } from "../accounts/plan-limits.ts";
import { deleteFile, sweepExpiredFiles } from "../files/file-lifecycle.ts";
import { insertPendingFile, storeFile } from "../files/file-store.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";

const HOUR = 3_600_000;

function patch(caller: TestCaller, fileId: string, json: unknown) {
  return api(`/v1/files/${fileId}`, { method: "PATCH", key: caller, json });
}

function store(accountId: string, expiresAt: number | null) {
  return storeFile(env, { accountId, kind: "source", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "image/png", expiresAt });
}

async function expiryOf(accountId: string, fileId: string): Promise<number | null> {
  const [row] = await fileShardRows<{ expires_at: number | null }>(accountId, "SELECT expires_at FROM files WHERE id = ?", fileId);
  return row!.expires_at;
}

describe("PATCH /v1/files/{file_id}", () => {
  it("makes an expiring file durable, so the sweep passes it by, and gives it an end again", async () => {
    const caller = await seedCaller();
    const file = await store(caller.accountId, Date.now() + HOUR);
    const durable = await patch(caller, file.id, { expires_at: null });
    expect(durable.status).toBe(200);
    expect(await durable.json()).toMatchObject({ file_id: file.id, expires_at: null, status: "ready" });
    expect(await expiryOf(caller.accountId, file.id)).toBeNull();
    await fileReportFed(caller.accountId);
    await sweepExpiredFiles(env, Date.now() + 400 * 24 * HOUR);
    expect(await env.FILES.head(file.r2_key)).not.toBeNull();

    const at = new Date(Date.now() + 2 * HOUR).toISOString();
    const timed = await patch(caller, file.id, { expires_at: at });
    expect(timed.status).toBe(200);
    expect(await timed.json()).toMatchObject({ expires_at: at });
    expect(await expiryOf(caller.accountId, file.id)).toBe(Date.parse(at));
    await fileReportFed(caller.accountId);
    await sweepExpiredFiles(env, Date.parse(at));
    expect(await env.FILES.head(file.r2_key)).toBeNull();
  });

  it("leaves the file as it was when durable storage would pass the quota (413)", async () => {
    const caller = await seedCaller({ plan: "free" });
    await insertPendingFile(env, { accountId: caller.accountId, kind: "source", contentType: "image/png", sizeBytes: durableStorageQuotaBytes.free - 2, expiresAt: null });
    const expiresAt = Date.now() + HOUR;
    const file = await store(caller.accountId, expiresAt);
    const problem = await problemOf(await patch(caller, file.id, { expires_at: null }));
    expect(problem).toMatchObject({ status: 413, type: "https://pixelpress.dev/problems/storage_quota_exceeded" });
    expect(await expiryOf(caller.accountId, file.id)).toBe(expiresAt);
  });

  it("refuses a time in the past or past retention (400), a deleted file (410), another account's (404) and a key without the files scope (403)", async () => {
    const caller = await seedCaller();
    const file = await store(caller.accountId, null);
    for (const expires_at of [new Date(Date.now() - HOUR).toISOString(), new Date(Date.now() + 25 * HOUR).toISOString()]) {
      expect((await problemOf(await patch(caller, file.id, { expires_at }))).status).toBe(400);
    }
    expect((await problemOf(await patch(caller, file.id, {}))).status).toBe(400);
    expect(await expiryOf(caller.accountId, file.id)).toBeNull();

    const other = await seedCaller();
    expect((await problemOf(await patch(other, file.id, { expires_at: null }))).status).toBe(404);
    const imagesOnly = await seedCaller({ scopes: ["images"] });
    expect((await problemOf(await patch(imagesOnly, file.id, { expires_at: null }))).status).toBe(403);

    await deleteFile(env, caller.accountId, file.id);
    expect((await problemOf(await patch(caller, file.id, { expires_at: null }))).status).toBe(410);
  });
});
