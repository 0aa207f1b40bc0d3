import { createMessageBatch, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consumeLedgerFeed, fileFeedMessage, LEDGER_FEED_QUEUE } from "../billing/ledger-feed.ts";
import { findFile, insertPendingFile, listFiles, markFileDeleted, setFileExpiry } from "../files/file-store.ts";
import { sweepExpiredFiles } from "../files/file-lifecycle.ts";
import type { ShardFileRow } from "../files/shard-files.ts";
import { seedCaller } from "../test-support/api.ts";
import { fileReportFed, fileStatus } from "../test-support/file-report.ts";
import type { FileShard } from "./file-shard.ts";
import { FILE_SHARD_STEPS, migrateShard } from "./shard-migrations.ts";
import { fileShard } from "./shard-stub.ts";

const HOUR = 3_600_000;

const row = (id: string, over: Partial<ShardFileRow> = {}): ShardFileRow => ({
  id,
  kind: "result",
  status: "ready",
  r2Key: `k/${id}`,
  filename: null,
  contentType: "image/webp",
  sizeBytes: 3,
  sha256: null,
  createdAt: 1,
  expiresAt: null,
  deletedAt: null,
  deletedReason: null,
  ...over,
});

const reported = (fileId: string) => env.DB.prepare("SELECT status, fed_seq FROM files WHERE id = ?").bind(fileId).first<{ status: string; fed_seq: number }>();

describe("FileShard", () => {
  it("imports the account's files from the shared database once, before it answers", async () => {
    const { accountId } = await seedCaller();
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO files (id, account_id, kind, status, r2_key, content_type, size_bytes, created_at, expires_at) VALUES (?, ?, 'source', 'ready', ?, 'image/png', 7, ?, NULL)",
    )
      .bind("file_beforetheshard00000", accountId, `accounts/${accountId}/file_beforetheshard00000`, now)
      .run();
    expect(await findFile(env, accountId, "file_beforetheshard00000")).toMatchObject({ status: "ready", size_bytes: 7, expires_at: null });
    // Rows the report gains later are the shard's own feed, never imported again.
    await env.DB.prepare(
      "INSERT INTO files (id, account_id, kind, status, r2_key, content_type, size_bytes, created_at) VALUES ('file_plantedafterimport0', ?, 'source', 'ready', 'k', 'image/png', 1, ?)",
    )
      .bind(accountId, now)
      .run();
    expect((await listFiles(env, accountId, { limit: 10, after: null })).map((file) => file.id)).toEqual(["file_beforetheshard00000"]);
  });

  it("takes each schema step once", async () => {
    const { accountId } = await seedCaller();
    const pending = await insertPendingFile(env, { accountId, kind: "source", contentType: "image/png", sizeBytes: 3, expiresAt: null });
    const versions = await runInDurableObject(fileShard(env, accountId), (_instance: FileShard, state) => [
      migrateShard(state.storage, FILE_SHARD_STEPS),
      migrateShard(state.storage, FILE_SHARD_STEPS),
    ]);
    expect(versions).toEqual([FILE_SHARD_STEPS.length, FILE_SHARD_STEPS.length]);
    expect(await fileStatus(accountId, pending.id)).toBe("pending");
  });

  it("feeds every change to the report, where a late copy of an older one changes nothing", async () => {
    const { accountId } = await seedCaller();
    const pending = await insertPendingFile(env, { accountId, kind: "source", contentType: "image/png", sizeBytes: 3, expiresAt: Date.now() + HOUR });
    await fileReportFed(accountId);
    expect(await reported(pending.id)).toMatchObject({ status: "pending" });
    await markFileDeleted(env, accountId, pending.id, "deleted");
    await fileReportFed(accountId);
    const deleted = (await reported(pending.id))!;
    expect(deleted.status).toBe("deleted");
    const late = fileFeedMessage(accountId, [{ seq: deleted.fed_seq - 1, row: row(pending.id, { status: "pending" }) }]);
    await consumeLedgerFeed(createMessageBatch(LEDGER_FEED_QUEUE, [{ id: "late", timestamp: new Date(), attempts: 2, body: late }]), env.DB);
    expect(await reported(pending.id)).toEqual(deleted);
  });

  it("lets the shard, not a report a moment behind, decide what the sweep expires", async () => {
    const { accountId } = await seedCaller();
    const now = Date.now();
    const lifted = await insertPendingFile(env, { accountId, kind: "source", contentType: "image/png", sizeBytes: 3, expiresAt: now - 1 }, now - HOUR);
    await fileReportFed(accountId);
    // Made durable since, in a change the report has not heard yet.
    await setFileExpiry(env, accountId, lifted.id, null);
    await sweepExpiredFiles(env, now);
    expect(await fileStatus(accountId, lifted.id)).toBe("pending");
    expect(await reported(lifted.id)).toMatchObject({ status: "pending" });
  });
});
