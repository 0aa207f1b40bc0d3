import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deleteFile } from "../files/file-lifecycle.ts";
import { storeFile, type FileRecord } from "../files/file-store.ts";
import { fileShardOf } from "../files/file-shard-index.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";

interface FileList {
  data: { file_id: string; expires_at: string | null; size_bytes: number; content_type: string; created_at: string }[];
  next_cursor: string | null;
}

function store(accountId: string, expiresAt: number | null, size = 8) {
  return storeFile(env, { accountId, kind: "source", body: new Uint8Array(size), size, contentType: "image/png", expiresAt });
}

async function page(caller: TestCaller, query: string): Promise<FileList> {
  const res = await api(`/v1/files${query}`, { key: caller });
  expect(res.status).toBe(200);
  return res.json<FileList>();
}

describe("GET /v1/files", () => {
  it("pages through files spread over several file shards as through one", async () => {
    const caller = await seedCaller();
    const spread = { FILE_SHARDS_PER_ACCOUNT: "4" };
    const stored: FileRecord[] = [];
    for (let i = 0; i < 12; i++) stored.push(await storeFile({ ...env, ...spread }, { accountId: caller.accountId, kind: "source", body: new Uint8Array(8), size: 8, contentType: "image/png", expiresAt: null }));
    expect(new Set(stored.map((file) => fileShardOf(file.id))).size).toBeGreaterThan(1);
    const listed: string[] = [];
    for (let cursor: string | null = ""; cursor !== null; ) {
      const res = await fetchWithEnv(spread, new Request(`http://api.test/v1/files?limit=5${cursor ? `&cursor=${cursor}` : ""}`, { headers: { Authorization: `Bearer ${caller.secret}` } }));
      const body = await res.json<FileList>();
      listed.push(...body.data.map((file) => file.file_id));
      cursor = body.next_cursor;
    }
    expect(listed).toEqual([...stored].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1)).map((file) => file.id));
  });

  it("pages through the account's live files newest first, and a file stored meanwhile shifts no page", async () => {
    const caller = await seedCaller();
    const stored: FileRecord[] = [];
    for (let i = 0; i < 5; i++) stored.push(await store(caller.accountId, i % 2 === 0 ? null : Date.now() + 3_600_000, 10 + i));
    const newestFirst = [...stored].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1)).map((f) => f.id);

    const first = await page(caller, "?limit=2");
    expect(first.data.map((f) => f.file_id)).toEqual(newestFirst.slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    const late = await store(caller.accountId, null);
    const second = await page(caller, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((f) => f.file_id)).toEqual(newestFirst.slice(2, 4));
    const third = await page(caller, `?limit=2&cursor=${second.next_cursor}`);
    expect(third.data.map((f) => f.file_id)).toEqual(newestFirst.slice(4));
    expect(third.next_cursor).toBeNull();

    const fresh = await page(caller, "?limit=100");
    expect(fresh.data[0]!.file_id).toBe(late.id);
    expect(fresh.data).toHaveLength(6);
    const durable = fresh.data.find((f) => f.file_id === stored[0]!.id)!;
    expect(durable).toMatchObject({ expires_at: null, size_bytes: 10, content_type: "image/png", created_at: new Date(stored[0]!.created_at).toISOString() });
    expect(fresh.data.find((f) => f.file_id === stored[1]!.id)!.expires_at).toEqual(expect.any(String));
  });

  it("leaves out deleted and expired files and other accounts' files", async () => {
    const caller = await seedCaller();
    const other = await seedCaller();
    const live = await store(caller.accountId, null);
    const acked = await store(caller.accountId, null);
    await deleteFile(env, caller.accountId, acked.id);
    await store(caller.accountId, Date.now() - 1);
    await store(other.accountId, null);
    expect((await page(caller, "")).data.map((f) => f.file_id)).toEqual([live.id]);
  });

  it("refuses a cursor it did not write and a limit out of range (400), and a key without the files scope (403)", async () => {
    const caller = await seedCaller();
    for (const query of ["?cursor=not-a-cursor", `?cursor=${btoa("1.file_x; DROP TABLE files")}`, "?limit=0", "?limit=101"]) {
      expect((await problemOf(await api(`/v1/files${query}`, { key: caller }))).status, query).toBe(400);
    }
    const imagesOnly = await seedCaller({ scopes: ["images"] });
    expect((await problemOf(await api("/v1/files", { key: imagesOnly }))).status).toBe(403);
    expect((await problemOf(await api("/v1/files"))).status).toBe(401);
  });
});
