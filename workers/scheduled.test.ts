import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeFile } from "./files/file-store.ts";
import worker from "./index.ts";
import { api, problemOf, seedCaller } from "./test-support/api.ts";

describe("scheduled maintenance", () => {
  it("deletes expired results from R2 and D1, leaving live ones", async () => {
    const caller = await seedCaller();
    const now = Date.now();
    const store = (expiresAt: number) =>
      storeFile(env, { accountId: caller.accountId, kind: "result", body: new Uint8Array([1, 2, 3]), size: 3, contentType: "application/octet-stream", expiresAt });
    const expired = await store(now - 1_000);
    const live = await store(now + 3_600_000);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await env.FILES.head(expired.r2_key)).toBeNull();
    expect(await env.FILES.head(live.r2_key)).not.toBeNull();
    const row = await env.DB.prepare("SELECT status FROM files WHERE id = ?").bind(expired.id).first<{ status: string }>();
    expect(row!.status).toBe("deleted");
    expect((await problemOf(await api(`/v1/files/${expired.id}`, { key: caller }))).status).toBe(410);
  });
});
