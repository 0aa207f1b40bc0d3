import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeFile } from "./files/file-store.ts";
import worker from "./index.ts";
import { encodeBase64 } from "../contracts/encoding/base64.ts";
import { api, problemOf, seedCaller } from "./test-support/api.ts";
import { generatedBytes } from "./test-support/generated-file.ts";
import { fileReportFed, fileStatus } from "./test-support/file-report.ts";

describe("scheduled maintenance", () => {
  it("deletes expired results from R2 and their file shard, leaving live ones", async () => {
    const caller = await seedCaller();
    const now = Date.now();
    const store = (expiresAt: number) =>
      storeFile(env, { accountId: caller.accountId, kind: "result", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "application/octet-stream", expiresAt });
    const expired = await store(now - 1_000);
    const live = await store(now + 3_600_000);
    await fileReportFed(caller.accountId);

    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await env.FILES.head(expired.r2_key)).toBeNull();
    expect(await env.FILES.head(live.r2_key)).not.toBeNull();
    expect(await fileStatus(caller.accountId, expired.id)).toBe("deleted");
    expect((await problemOf(await api(`/v1/files/${expired.id}`, { key: caller }))).status).toBe(410);
  });

  it("never deletes a durable file: it survives the sweep and an optimize call that uses it with keep_source false", async () => {
    const caller = await seedCaller();
    const photo = await generatedBytes("landscape-3.jpg");
    const stored = await api("/v1/files", { key: caller, json: { source: { base64: encodeBase64(photo) }, expires_at: null } });
    expect(stored.status).toBe(201);
    const { file_id: fileId } = await stored.json<{ file_id: string }>();

    for (let call = 0; call < 2; call++) {
      const res = await api("/v1/image/optimize", { key: caller, json: { source: { file_id: fileId }, options: { width: 120, format: "webp", keep_source: false } } });
      expect(res.status).toBe(200);
    }
    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController({ scheduledTime: Date.now() + 400 * 86_400_000, cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const file = await api(`/v1/files/${fileId}`, { key: caller });
    expect(file.status).toBe(200);
    expect(await file.json()).toMatchObject({ status: "ready", expires_at: null });
    const object = await env.FILES.get(`accounts/${caller.accountId}/${fileId}`);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(photo);
  });

  it("deletes an expiring upload an optimize call used, and its 410 says so and names keep_source", async () => {
    const caller = await seedCaller();
    const photo = await generatedBytes("landscape-3.jpg");
    const upload = await storeFile(env, { accountId: caller.accountId, kind: "source", body: photo, size: photo.length, contentType: "image/jpeg" });
    const res = await api("/v1/image/optimize", { key: caller, json: { source: { file_id: upload.id }, options: { width: 120 } } });
    expect(res.status).toBe(200);
    const again = await problemOf(await api("/v1/image/optimize", { key: caller, json: { source: { file_id: upload.id }, options: { width: 120 } } }));
    expect(again.status).toBe(410);
    expect(again.detail).toMatch(/used it as its source/);
    expect(again.detail).toMatch(/keep_source/);
  });
});
