import { env, runDurableObjectAlarm } from "cloudflare:test";
import { expect, vi } from "vitest";
import { fileShard } from "../shards/shard-stub.ts";
import { fileShardRows } from "./shard-rows.ts";

type ReportedFile = { id: string; status: string; expires_at: number | null };

/**
 * Feeds the account's file shard to the shared report (the edge's tests feed only when a test runs
 * the alarm) and waits until the report holds every file as the shard has it.
 */
export async function fileReportFed(accountId: string): Promise<void> {
  await runDurableObjectAlarm(fileShard(env, accountId));
  const inShard = await fileShardRows<ReportedFile>(accountId, "SELECT id, status, expires_at FROM files ORDER BY id");
  await vi.waitFor(
    async () => {
      const { results } = await env.DB.prepare("SELECT id, status, expires_at FROM files WHERE account_id = ? ORDER BY id").bind(accountId).all<ReportedFile>();
      expect(results).toEqual(inShard);
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** A file's status in its account's file index. */
export async function fileStatus(accountId: string, fileId: string): Promise<string | undefined> {
  const [row] = await fileShardRows<{ status: string }>(accountId, "SELECT status FROM files WHERE id = ?", fileId);
  return row?.status;
}
