import { env } from "cloudflare:test";
import { updateAccountSettings } from "../accounts/account-store.ts";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { seedCaller } from "../test-support/api.ts";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { fileKey, findFile, insertPendingFile, openFile, retentionFor, storeFile } from "./file-store.ts";

const DAY = 86_400_000;

function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65_536)));
  return bytes;
}

function streamOf(bytes: Uint8Array, chunk = 1000): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

async function problemSlug(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return `${(error as ProblemError).status} ${(error as ProblemError).slug}`;
}

describe("storeFile", () => {
  it("writes bytes under the account's key and records a ready row", async () => {
    const { accountId } = await seedCaller();
    const bytes = randomBytes(3000);
    const record = await storeFile(env, {
      accountId,
      kind: "result",
      body: bytes,
      size: bytes.length,
      contentType: "image/webp",
      filename: "out.webp",
      expiresAt: Date.now() + DAY,
    });
    expect(record.id).toMatch(/^file_/);
    expect(record.status).toBe("ready");
    expect(record.r2_key).toBe(`accounts/${accountId}/${record.id}`);
    const object = await env.FILES.get(record.r2_key);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    expect(object!.httpMetadata?.contentType).toBe("image/webp");
    expect(await findFile(env, accountId, record.id)).toEqual(record);
  });

  it("streams a body of known size and keeps the verified sha256", async () => {
    const { accountId } = await seedCaller();
    const bytes = randomBytes(250_000);
    const sha256 = await sha256Hex(bytes);
    const record = await storeFile(env, {
      accountId,
      kind: "source",
      body: streamOf(bytes, 4096),
      size: bytes.length,
      contentType: "application/pdf",
      expiresAt: Date.now() + DAY,
      sha256,
    });
    expect(record.sha256).toBe(sha256);
    expect(record.size_bytes).toBe(bytes.length);
    const stored = new Uint8Array(await (await env.FILES.get(record.r2_key))!.arrayBuffer());
    expect(await sha256Hex(stored)).toBe(sha256);
  });

  it("leaves no ready row and no object when the stream is shorter than promised", async () => {
    const { accountId } = await seedCaller();
    const bytes = randomBytes(1000);
    await expect(
      storeFile(env, { accountId, kind: "source", body: streamOf(bytes), size: 2000, contentType: "image/png", expiresAt: Date.now() + DAY }),
    ).rejects.toThrow();
    const results = await fileShardRows<{ id: string; status: string }>(accountId, "SELECT id, status FROM files");
    expect(results.map((r) => r.status)).toEqual(["deleted"]);
    expect(await env.FILES.head(fileKey(accountId, results[0]!.id))).toBeNull();
  });

  it("refuses a byte array whose length is not the declared size before writing anything", async () => {
    const { accountId } = await seedCaller();
    await expect(
      storeFile(env, { accountId, kind: "result", body: randomBytes(10), size: 11, contentType: "image/png", expiresAt: Date.now() + DAY }),
    ).rejects.toThrow(RangeError);
    expect(await fileShardRows(accountId, "SELECT COUNT(*) AS n FROM files")).toEqual([{ n: 0 }]);
  });

  it("leaves no ready row when the bytes do not match the declared sha256", async () => {
    const { accountId } = await seedCaller();
    const bytes = randomBytes(500);
    await expect(
      storeFile(env, { accountId, kind: "source", body: bytes, size: 500, contentType: "image/png", expiresAt: Date.now() + DAY, sha256: "0".repeat(64) }),
    ).rejects.toThrow();
    expect(await fileShardRows(accountId, "SELECT COUNT(*) AS n FROM files WHERE status = 'ready'")).toEqual([{ n: 0 }]);
  });
});

describe("findFile and openFile", () => {
  it("answers 404 for a missing id and for another account's file, never 403", async () => {
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const record = await storeFile(env, { accountId: theirs.accountId, kind: "result", body: randomBytes(10), size: 10, contentType: "image/png", expiresAt: Date.now() + DAY });
    expect(await problemSlug(findFile(env, mine.accountId, record.id))).toBe("404 not_found");
    expect(await problemSlug(findFile(env, mine.accountId, "file_doesnotexist000000"))).toBe("404 not_found");
    expect(await problemSlug(openFile(env, mine.accountId, record.id))).toBe("404 not_found");
  });

  it("answers 410 for an expired file the sweep has not reached yet", async () => {
    const { accountId } = await seedCaller();
    const now = Date.now();
    const record = await storeFile(env, { accountId, kind: "result", body: randomBytes(10), size: 10, contentType: "image/png", expiresAt: now + 1000 });
    expect((await findFile(env, accountId, record.id, now)).id).toBe(record.id);
    expect(await problemSlug(findFile(env, accountId, record.id, now + 1000))).toBe("410 gone");
  });

  it("reads a byte range, refuses an unsatisfiable one with 416, and a pending upload with 409", async () => {
    const { accountId } = await seedCaller();
    const bytes = randomBytes(5000);
    const record = await storeFile(env, { accountId, kind: "result", body: bytes, size: 5000, contentType: "application/pdf", expiresAt: Date.now() + DAY });

    const part = await openFile(env, accountId, record.id, "bytes=1000-1999");
    expect(part.range).toEqual({ offset: 1000, length: 1000 });
    expect(new Uint8Array(await part.object.arrayBuffer())).toEqual(bytes.slice(1000, 2000));

    const whole = await openFile(env, accountId, record.id);
    expect(whole.range).toBeNull();
    expect(new Uint8Array(await whole.object.arrayBuffer())).toEqual(bytes);

    const error = await openFile(env, accountId, record.id, "bytes=5000-").catch((e: ProblemError) => e);
    expect(error).toMatchObject({ status: 416, slug: "range_not_satisfiable", headers: { "Content-Range": "bytes */5000" } });

    const pending = await insertPendingFile(env, { accountId, kind: "source", contentType: "image/png", sizeBytes: 10, expiresAt: Date.now() + DAY });
    expect(await problemSlug(openFile(env, accountId, pending.id))).toBe("409 upload_incomplete");
  });
});

describe("retentionFor", () => {
  it("reads the account's retention_hours, 24 by default, and a change made here at once", async () => {
    const { accountId } = await seedCaller();
    expect(await retentionFor(env.DB, accountId)).toBe(DAY);
    await updateAccountSettings(env.DB, accountId, { retention_hours: 2 });
    expect(await retentionFor(env.DB, accountId)).toBe(2 * 3_600_000);
  });

  it("remembers the retention in the isolate: a change another isolate made is read within the memo's time", async () => {
    const { accountId } = await seedCaller();
    expect(await retentionFor(env.DB, accountId)).toBe(DAY);
    await env.DB.prepare("UPDATE accounts SET retention_hours = 2 WHERE id = ?").bind(accountId).run();
    expect(await retentionFor(env.DB, accountId)).toBe(DAY);
  });
});
