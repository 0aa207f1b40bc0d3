import { env } from "cloudflare:test";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { describe, expect, it } from "vitest";
import { fileKey } from "../files/file-store.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";

interface CreatedUpload {
  file_id: string;
  status: string;
  expires_at: string | null;
  upload: { method: string; url: string; headers: Record<string, string>; expires_at: string };
}

async function createUpload(caller: TestCaller, body: Record<string, unknown>): Promise<CreatedUpload> {
  const res = await api("/v1/uploads", { key: caller, json: body });
  expect(res.status).toBe(201);
  return res.json<CreatedUpload>();
}

describe("POST /v1/uploads", () => {
  it("returns a pending file and a presigned PUT with its length and type signed", async () => {
    const caller = await seedCaller();
    const started = Date.now();
    const created = await createUpload(caller, { filename: "scan.pdf", content_type: "Application/PDF", size_bytes: 150 * 1024 * 1024 });
    expect(created.file_id).toMatch(/^file_/);
    expect(created.status).toBe("pending");
    expect(created.upload.method).toBe("PUT");
    expect(created.upload.headers).toEqual({ "Content-Type": "application/pdf", "Content-Length": String(150 * 1024 * 1024) });
    const ttl = Date.parse(created.upload.expires_at) - started;
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(Date.parse(created.expires_at!) - started).toBeGreaterThan(23 * 3_600_000);

    // Locally the PUT goes to wrangler dev's S3 endpoint for the bucket, on the API's own origin.
    const url = new URL(created.upload.url);
    expect(url.origin + url.pathname).toBe(`http://api.test/cdn-cgi/local/r2/s3/pixelpress-files/${fileKey(caller.accountId, created.file_id)}`);
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");

    const file = await (await api(`/v1/files/${created.file_id}`, { key: caller })).json<Record<string, unknown>>();
    expect(file).toMatchObject({ status: "pending", kind: "source", filename: "scan.pdf", download_url: null });
  });

  it("takes expires_at like POST /v1/files: null reserves a durable file against the quota, which refuses the upload past it", async () => {
    const caller = await seedCaller({ plan: "free" });
    const size = 200 * 1024 * 1024;
    const durable = await createUpload(caller, { content_type: "image/jpeg", size_bytes: size, expires_at: null });
    expect(durable.expires_at).toBeNull();
    expect(await fileShardRows(caller.accountId, "SELECT status, expires_at FROM files WHERE id = ?", durable.file_id)).toEqual([{ status: "pending", expires_at: null }]);
    for (let i = 0; i < 3; i++) await createUpload(caller, { content_type: "image/jpeg", size_bytes: size, expires_at: null });
    // Four pending 200 MiB uploads hold 839 MB of the free plan's 1 GB: a fifth would pass it.
    const refused = await api("/v1/uploads", { key: caller, json: { content_type: "image/jpeg", size_bytes: size, expires_at: null } });
    expect(await problemOf(refused)).toMatchObject({ status: 413, type: "https://pixelpress.dev/problems/storage_quota_exceeded" });
    // The refused fifth keeps no live row: its pending row is ended, its id never given out.
    expect(await fileShardRows(caller.accountId, "SELECT status, COUNT(*) AS n FROM files GROUP BY status ORDER BY status")).toEqual([
      { status: "deleted", n: 1 },
      { status: "pending", n: 4 },
    ]);
    const past = await api("/v1/uploads", { key: caller, json: { content_type: "image/jpeg", size_bytes: 10, expires_at: "2020-01-01T00:00:00Z" } });
    expect((await problemOf(past)).status).toBe(400);
  });

  it("validates the request, with the 200 MB platform maximum", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/uploads", {
      key: caller,
      json: { filename: "../etc/passwd", content_type: "text/html; charset=utf-8", size_bytes: 200 * 1024 * 1024 + 1, extra: true },
    });
    const problem = await problemOf(res);
    expect(problem.status).toBe(400);
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(["/content_type", "/extra", "/filename", "/size_bytes"]);
    expect(problem.errors!.find((e) => e.pointer === "/size_bytes")!.detail).toMatch(/200 MB/);
    expect((await api("/v1/uploads", { key: caller, json: { content_type: "image/png", size_bytes: 0 } })).status).toBe(400);
    expect((await api("/v1/uploads", { key: caller, json: { content_type: "image/png", size_bytes: 200 * 1024 * 1024 } })).status).toBe(201);
  });

  it("needs the files scope, and answers 503 outside development without R2 credentials", async () => {
    const scoped = await seedCaller({ scopes: ["images"] });
    expect((await problemOf(await api("/v1/uploads", { key: scoped, json: { content_type: "image/png", size_bytes: 5 } }))).status).toBe(403);

    const caller = await seedCaller();
    const request = new Request("https://api.pixelpress.dev/v1/uploads", {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content_type: "image/png", size_bytes: 5 }),
    });
    expect((await problemOf(await fetchWithEnv({ ENVIRONMENT: "production" }, request))).status).toBe(503);
    expect(await fileShardRows(caller.accountId, "SELECT COUNT(*) AS n FROM files")).toEqual([{ n: 0 }]);
  });
});

describe("POST /v1/uploads/{file_id}/complete", () => {
  it("refuses to complete before the bytes arrived, then makes the file ready and downloadable", async () => {
    const caller = await seedCaller();
    const bytes = crypto.getRandomValues(new Uint8Array(2048));
    const created = await createUpload(caller, { filename: "a.png", content_type: "image/png", size_bytes: bytes.length });
    const complete = () => api(`/v1/uploads/${created.file_id}/complete`, { key: caller, method: "POST" });

    const early = await problemOf(await complete());
    expect(early.status).toBe(409);
    expect(early.type).toMatch(/upload_incomplete$/);

    // What the presigned PUT stores (the real HTTP PUT is exercised end to end in test/uploads.e2e.test.ts).
    await env.FILES.put(fileKey(caller.accountId, created.file_id), bytes, { httpMetadata: { contentType: "image/png" } });
    const done = await complete();
    expect(done.status).toBe(200);
    const file = await done.json<{ status: string; download_url: string }>();
    expect(file.status).toBe("ready");
    const download = await api(new URL(file.download_url).pathname + new URL(file.download_url).search);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);

    const again = await complete();
    expect(again.status).toBe(200);
    expect((await again.json<{ status: string }>()).status).toBe("ready");
  });

  it("refuses an object whose size or type differs from the declaration", async () => {
    const caller = await seedCaller();
    const created = await createUpload(caller, { content_type: "image/png", size_bytes: 100 });
    await env.FILES.put(fileKey(caller.accountId, created.file_id), new Uint8Array(99), { httpMetadata: { contentType: "image/png" } });
    const problem = await problemOf(await api(`/v1/uploads/${created.file_id}/complete`, { key: caller, method: "POST" }));
    expect(problem.status).toBe(409);
    expect(problem.detail).toMatch(/99 bytes/);

    await env.FILES.put(fileKey(caller.accountId, created.file_id), new Uint8Array(100), { httpMetadata: { contentType: "text/html" } });
    expect((await problemOf(await api(`/v1/uploads/${created.file_id}/complete`, { key: caller, method: "POST" }))).detail).toMatch(/text\/html/);
  });

  it("answers 404 for another account's upload and 410 for an acknowledged one", async () => {
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const created = await createUpload(theirs, { content_type: "image/png", size_bytes: 10 });
    expect((await problemOf(await api(`/v1/uploads/${created.file_id}/complete`, { key: mine, method: "POST" }))).status).toBe(404);
    expect((await api(`/v1/files/${created.file_id}/ack`, { key: theirs, method: "POST" })).status).toBe(200);
    expect((await problemOf(await api(`/v1/uploads/${created.file_id}/complete`, { key: theirs, method: "POST" }))).status).toBe(410);
  });
});
