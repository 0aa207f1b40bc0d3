import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FileShard } from "../shards/file-shard.ts";
import { fileShard } from "../shards/shard-stub.ts";
import { seedCaller } from "../test-support/api.ts";
import { fileShardOf, fileShardsPerAccount, MAX_FILE_SHARDS, newFileId } from "./file-shard-index.ts";
import { durableUsage, expireFiles, findFile, insertPendingFile, listFiles, markFileReady, type FileRecord } from "./file-store.ts";

const spread = { ...env, FILE_SHARDS_PER_ACCOUNT: "4" };

async function idsInShard(accountId: string, index: number): Promise<string[]> {
  return runInDurableObject(fileShard(env, accountId, index), (_shard: FileShard, state) =>
    state.storage.sql
      .exec<{ id: string }>("SELECT id FROM files ORDER BY id")
      .toArray()
      .map((row) => row.id),
  );
}

describe("an account's files over several file shards", () => {
  it("names the shard in each new id, and reads an id of the first form as the first shard's", () => {
    const ids = Array.from({ length: 200 }, () => newFileId(4));
    expect(new Set(ids.map(fileShardOf))).toEqual(new Set([0, 1, 2, 3]));
    expect(ids.every((id) => /^file_[0-3][0-9A-Za-z]{20}$/.test(id))).toBe(true);
    expect(fileShardOf(newFileId(MAX_FILE_SHARDS - 1).replace(/^file_./, "file_z"))).toBe(61);
    expect([fileShardOf("file_8kT2bQ7xLw3mZr9Xc1Vd"), fileShardOf("orig_8kT2bQ7xLw3mZr9Xc1Vd0"), fileShardOf("file_-kT2bQ7xLw3mZr9Xc1Vd0")]).toEqual([0, 0, 0]);
    expect([fileShardsPerAccount("4"), fileShardsPerAccount(undefined), fileShardsPerAccount("63"), fileShardsPerAccount("0")]).toEqual([4, 1, 1, 1]);
  });

  it("keeps each file in the shard its id names, and lists, counts and expires across all of them", async () => {
    const { accountId } = await seedCaller();
    const now = Date.now();
    const made: FileRecord[] = [];
    for (let i = 0; i < 12; i++) {
      const pending = await insertPendingFile(spread, { accountId, kind: "result", contentType: "image/png", sizeBytes: 10 + i, expiresAt: i < 3 ? now + 60_000 : null }, now - i * 1000);
      made.push((await markFileReady(spread, accountId, pending.id))!);
    }
    for (let index = 0; index < 4; index++) {
      expect(await idsInShard(accountId, index)).toEqual(made.filter((file) => fileShardOf(file.id) === index).map((file) => file.id).sort());
    }
    for (const file of made) expect((await findFile(spread, accountId, file.id)).size_bytes).toBe(file.size_bytes);

    // Newest first, page by page, every file once.
    const listed: string[] = [];
    let after = null;
    for (;;) {
      const page = await listFiles(spread, accountId, { limit: 5, after }, now);
      listed.push(...page.map((file) => file.id));
      if (page.length < 5) break;
      after = { createdAt: page.at(-1)!.created_at, id: page.at(-1)!.id };
    }
    expect(listed).toEqual(made.map((file) => file.id));
    expect(await durableUsage(spread, accountId, "ready")).toEqual({ files: 9, bytes: made.slice(3).reduce((sum, file) => sum + file.size_bytes, 0) });

    const expired = await expireFiles(spread, accountId, made.map((file) => file.id), now + 120_000);
    expect(expired.map((file) => file.id).sort()).toEqual(made.slice(0, 3).map((file) => file.id).sort());
  });

  it("leaves the files from before the shards to the first shard alone", async () => {
    const { accountId } = await seedCaller();
    await env.DB.prepare("INSERT INTO files (id, account_id, kind, status, r2_key, content_type, size_bytes, created_at) VALUES ('file_beforeanysplit00000', ?, 'source', 'ready', 'k', 'image/png', 5, ?)")
      .bind(accountId, Date.now())
      .run();
    const page = await listFiles(spread, accountId, { limit: 10, after: null });
    expect(page.map((file) => file.id)).toEqual(["file_beforeanysplit00000"]);
    for (const index of [1, 2, 3]) expect(await idsInShard(accountId, index)).toEqual([]);
  });

  it("finds no file, and wakes no shard, for an id naming a shard the account does not use", async () => {
    const { accountId } = await seedCaller();
    const beyond = newFileId(1).replace(/^file_./, "file_z");
    expect(fileShardOf(beyond)).toBe(61);
    await expect(findFile(spread, accountId, beyond)).rejects.toMatchObject({ slug: "not_found" });
    const facts = await runInDurableObject(fileShard(env, accountId, 61), (_shard: FileShard, state) => state.storage.sql.exec("SELECT * FROM shard_facts").toArray());
    expect(facts).toEqual([]);
  });
});
