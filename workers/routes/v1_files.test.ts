import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { reportedFileOwner } from "../files/d1-files.ts";
import { signedDownloadUrl } from "../files/download-signature.ts";
import { storeFile } from "../files/file-store.ts";
import { fileShard } from "../shards/shard-stub.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";

const DAY = 86_400_000;

function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(size));
}

async function resultFile(accountId: string, options: { bytes?: Uint8Array; filename?: string; expiresAt?: number } = {}) {
  const bytes = options.bytes ?? randomBytes(4096);
  const record = await storeFile(env, {
    accountId,
    kind: "result",
    body: bytes,
    size: bytes.length,
    contentType: "image/avif",
    filename: options.filename ?? "photo.avif",
    expiresAt: options.expiresAt ?? Date.now() + DAY,
  });
  return { record, bytes };
}

/** The path and query of a signed URL, to send through the worker under test. */
function local(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

async function downloadUrlOf(caller: Awaited<ReturnType<typeof seedCaller>>, fileId: string): Promise<string> {
  const res = await api(`/v1/files/${fileId}`, { key: caller });
  expect(res.status).toBe(200);
  return (await res.json<{ download_url: string }>()).download_url;
}

describe("GET /v1/files/{file_id}", () => {
  it("describes the file with a signed URL that expires with it", async () => {
    const caller = await seedCaller();
    const { record } = await resultFile(caller.accountId);
    const res = await api(`/v1/files/${record.id}`, { key: caller });
    expect(res.status).toBe(200);
    const file = await res.json<Record<string, unknown>>();
    expect(file).toMatchObject({
      file_id: record.id,
      kind: "result",
      status: "ready",
      filename: "photo.avif",
      content_type: "image/avif",
      size_bytes: 4096,
      expires_at: new Date(record.expires_at!).toISOString(),
    });
    const url = new URL(file.download_url as string);
    expect(url.origin).toBe("http://api.test");
    expect(url.pathname).toBe(`/v1/files/${record.id}/content`);
    expect(Number(url.searchParams.get("expires"))).toBe(Math.floor(record.expires_at! / 1000));
  });

  it("answers 404 for another account's file and 403 to a key without the files scope", async () => {
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const { record } = await resultFile(theirs.accountId);
    expect((await problemOf(await api(`/v1/files/${record.id}`, { key: mine }))).status).toBe(404);
    const scoped = await seedCaller({ scopes: ["images"] });
    const { record: own } = await resultFile(scoped.accountId);
    expect((await problemOf(await api(`/v1/files/${own.id}`, { key: scoped }))).status).toBe(403);
    expect((await problemOf(await api(`/v1/files/${own.id}`))).status).toBe(401);
  });
});

describe("GET /v1/files/{file_id}/content (signed)", () => {
  it("serves the exact bytes without an API key, with type, length, disposition, ETag and Accept-Ranges", async () => {
    const caller = await seedCaller();
    const { record, bytes } = await resultFile(caller.accountId, { filename: "Überblick 2026.avif" });
    const res = await api(local(await downloadUrlOf(caller, record.id)));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/avif");
    expect(res.headers.get("Content-Length")).toBe("4096");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="_berblick 2026.avif"; filename*=UTF-8''%C3%9Cberblick%202026.avif`);
    expect(res.headers.get("ETag")).toMatch(/^"[^"]+"$/);
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);

    const head = await api(local(await downloadUrlOf(caller, record.id)), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe("4096");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("serves a single range as 206 with Content-Range, and an unsatisfiable one as 416", async () => {
    const caller = await seedCaller();
    const { record, bytes } = await resultFile(caller.accountId);
    const path = local(await downloadUrlOf(caller, record.id));

    const part = await api(path, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe("bytes 100-199/4096");
    expect(part.headers.get("Content-Length")).toBe("100");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(100, 200));

    const tail = await api(path, { headers: { Range: "bytes=-96" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("Content-Range")).toBe("bytes 4000-4095/4096");
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(4000));

    const beyond = await api(path, { headers: { Range: "bytes=4096-" } });
    expect((await problemOf(beyond)).status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe("bytes */4096");
  });

  it("refuses a tampered, re-targeted or expired signature with 403", async () => {
    const caller = await seedCaller();
    const stranger = await seedCaller();
    const { record } = await resultFile(caller.accountId);
    const { record: other } = await resultFile(caller.accountId);
    const url = new URL(await downloadUrlOf(caller, record.id));
    const sig = url.searchParams.get("sig")!;

    url.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    expect((await problemOf(await api(local(url.toString())))).status).toBe(403);

    url.searchParams.set("sig", sig);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await problemOf(await api(local(url.toString())))).status).toBe(403);

    const retargeted = local((await downloadUrlOf(caller, record.id)).replace(record.id, other.id));
    expect((await problemOf(await api(retargeted))).status).toBe(403);

    const otherAccount = new URL(local(await downloadUrlOf(caller, record.id)), "http://api.test");
    otherAccount.searchParams.set("account", stranger.accountId);
    expect((await problemOf(await api(`${otherAccount.pathname}${otherAccount.search}`))).status).toBe(403);

    const expired = await signedDownloadUrl(env.SIGNING_SECRET, "http://api.test", { ...record, expires_at: Date.now() - 1000 });
    const problem = await problemOf(await api(local(expired)));
    expect(problem.status).toBe(403);
    expect(problem.detail).toMatch(/expired/);

    expect((await problemOf(await api(`/v1/files/${record.id}/content`))).status).toBe(400);
  });

  it("still serves a link signed before links named their account, finding the account in the shared report", async () => {
    const caller = await seedCaller();
    const { record, bytes } = await resultFile(caller.accountId);
    await runDurableObjectAlarm(fileShard(env, caller.accountId));
    await vi.waitFor(async () => expect(await reportedFileOwner(env.DB, record.id)).toBe(caller.accountId), { timeout: 10_000, interval: 100 });
    const expires = Math.floor(record.expires_at! / 1000);
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(env.SIGNING_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${record.id}.${expires}`)));
    const sig = btoa(String.fromCharCode(...mac)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const res = await api(`/v1/files/${record.id}/content?expires=${expires}&sig=${sig}`);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it("answers 410 for a file that expired but was not swept yet, even with a valid signature", async () => {
    const caller = await seedCaller();
    const { record } = await resultFile(caller.accountId, { expiresAt: Date.now() - 1 });
    const url = await signedDownloadUrl(env.SIGNING_SECRET, "http://api.test", { ...record, expires_at: Date.now() + 60_000 });
    expect((await problemOf(await api(local(url)))).status).toBe(410);
    expect((await problemOf(await api(`/v1/files/${record.id}`, { key: caller }))).status).toBe(410);
  });
});

describe("POST /v1/files/{file_id}/ack", () => {
  it("deletes the file at once: the object is gone and its URL answers 410; a second ack is 200", async () => {
    const caller = await seedCaller();
    const { record } = await resultFile(caller.accountId);
    const url = local(await downloadUrlOf(caller, record.id));
    const before = await api(url);
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    const acked = await api(`/v1/files/${record.id}/ack`, { key: caller, method: "POST" });
    expect(acked.status).toBe(200);
    expect(await acked.json()).toMatchObject({ file_id: record.id, status: "deleted", download_url: null });
    expect(await env.FILES.head(record.r2_key)).toBeNull();
    expect((await problemOf(await api(url))).status).toBe(410);
    expect((await problemOf(await api(`/v1/files/${record.id}`, { key: caller }))).status).toBe(410);

    const again = await api(`/v1/files/${record.id}/ack`, { key: caller, method: "POST" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "deleted" });
  });

  it("answers 404 for another account's file and leaves it downloadable", async () => {
    const mine = await seedCaller();
    const theirs = await seedCaller();
    const { record } = await resultFile(theirs.accountId);
    expect((await problemOf(await api(`/v1/files/${record.id}/ack`, { key: mine, method: "POST" }))).status).toBe(404);
    expect(await env.FILES.head(record.r2_key)).not.toBeNull();
    expect((await api(local(await downloadUrlOf(theirs, record.id)))).status).toBe(200);
  });
});
