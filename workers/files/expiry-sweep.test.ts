import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { seedCaller } from "../test-support/api.ts";
import { sweepExpiredFiles } from "./expiry-sweep.ts";
import { findFile, insertPendingFile, storeFile } from "./file-store.ts";

async function statusOf(fileId: string): Promise<string> {
  return (await env.DB.prepare("SELECT status FROM files WHERE id = ?").bind(fileId).first<{ status: string }>())!.status;
}

function store(accountId: string, expiresAt: number) {
  const body = new TextEncoder().encode(`bytes expiring at ${expiresAt}`);
  return storeFile(env, { accountId, kind: "result", body, size: body.length, contentType: "text/plain", expiresAt });
}

describe("sweepExpiredFiles", () => {
  it("deletes expired objects and marks their rows deleted, leaving live files alone", async () => {
    const { accountId } = await seedCaller();
    const now = Date.UTC(2030, 0, 1);
    const expired = await store(accountId, now - 1);
    const dueNow = await store(accountId, now);
    const live = await store(accountId, now + 1);
    // An upload that was never completed: its object exists but its row is still pending.
    const abandoned = await insertPendingFile(env.DB, { accountId, kind: "source", contentType: "image/png", sizeBytes: 3, expiresAt: now - 10 });
    await env.FILES.put(abandoned.r2_key, new Uint8Array([1, 2, 3]));

    // Expired but not yet swept already answers 410.
    const before = await findFile(env.DB, accountId, expired.id, now).catch((e: ProblemError) => e);
    expect(before).toMatchObject({ status: 410, slug: "gone" });

    expect(await sweepExpiredFiles(env, now, 100)).toBeGreaterThanOrEqual(3);
    for (const file of [expired, dueNow, abandoned]) {
      expect(await statusOf(file.id)).toBe("deleted");
      expect(await env.FILES.head(file.r2_key)).toBeNull();
      const after = await findFile(env.DB, accountId, file.id, now).catch((e: ProblemError) => e);
      expect(after).toMatchObject({ status: 410, slug: "gone" });
    }
    expect(await statusOf(live.id)).toBe("ready");
    expect(await env.FILES.head(live.r2_key)).not.toBeNull();
    expect(await sweepExpiredFiles(env, now, 100)).toBe(0);
  });

  it("works through more files than one D1 statement can bind, `limit` at a time", async () => {
    const { accountId } = await seedCaller();
    const now = Date.UTC(2029, 0, 1);
    await Promise.all(Array.from({ length: 130 }, (_, i) => store(accountId, now - 1000 + i)));

    expect(await sweepExpiredFiles(env, now, 120)).toBe(120);
    expect(await sweepExpiredFiles(env, now, 120)).toBe(10);
    expect(await sweepExpiredFiles(env, now, 120)).toBe(0);

    const { results } = await env.DB.prepare("SELECT status, COUNT(*) AS n FROM files WHERE account_id = ? GROUP BY status")
      .bind(accountId)
      .all<{ status: string; n: number }>();
    expect(results).toEqual([{ status: "deleted", n: 130 }]);
    const listed = await env.FILES.list({ prefix: `accounts/${accountId}/` });
    expect(listed.objects).toEqual([]);
  });
});
