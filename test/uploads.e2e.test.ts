import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import type { components } from "../clients/ts/api-types.ts";
import { generatedFile } from "./fixtures/generated-files.ts";

const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}` };

type CreatedUpload = components["schemas"]["CreatedUpload"];

async function createUpload(body: Record<string, unknown>): Promise<CreatedUpload> {
  const res = await fetch(`${edge}/v1/uploads`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(201);
  return await res.json<CreatedUpload>();
}

function put(upload: CreatedUpload["upload"], body: Uint8Array, headers: Record<string, string> = upload.headers): Promise<Response> {
  // Node's fetch sets Content-Length from the body itself; only Content-Type is taken from `headers`.
  return fetch(upload.url, { method: upload.method, headers: { "Content-Type": headers["Content-Type"]! }, body });
}

function complete(fileId: string): Promise<Response> {
  return fetch(`${edge}/v1/uploads/${fileId}/complete`, { method: "POST", headers: auth });
}

describe("presigned uploads through the running pair (npm start)", () => {
  it("uploads by a real presigned PUT, downloads the same bytes by the signed URL, and acks it to 410", async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const { file_id, upload } = await createUpload({ filename: "big scan.pdf", content_type: "application/pdf", size_bytes: bytes.length });
    expect(upload.url.startsWith(`${edge}/cdn-cgi/local/r2/s3/pixelpress-files/`)).toBe(true);

    expect((await complete(file_id)).status).toBe(409);
    const stored = await put(upload, bytes);
    expect(stored.status, await stored.text()).toBe(200);
    const completed = await complete(file_id);
    expect(completed.status, await completed.clone().text()).toBe(200);
    expect((await completed.json<{ status: string }>()).status).toBe("ready");

    const meta = await fetch(`${edge}/v1/files/${file_id}`, { headers: auth });
    const file = await meta.json<{ status: string; size_bytes: number; download_url: string }>();
    expect(file).toMatchObject({ status: "ready", size_bytes: bytes.length });
    expect(file.download_url.startsWith(`${edge}/v1/files/${file_id}/content?`)).toBe(true);

    // No API key: the signed URL alone is the credential.
    const download = await fetch(file.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-length")).toBe(String(bytes.length));
    expect(download.headers.get("content-disposition")).toContain("filename*=UTF-8''big%20scan.pdf");
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const ranged = await fetch(file.download_url, { headers: { Range: "bytes=1048576-1048675" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 1048576-1048675/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(1048576, 1048676))).toBe(true);

    const acked = await fetch(`${edge}/v1/files/${file_id}/ack`, { method: "POST", headers: auth });
    expect(acked.status).toBe(200);
    const gone = await fetch(file.download_url);
    expect(gone.status).toBe(410);
    expect(gone.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await fetch(`${edge}/v1/files/${file_id}/ack`, { method: "POST", headers: auth })).status).toBe(200);
  });

  it("refuses a PUT with the wrong length or type, and a tampered URL", async () => {
    const bytes = randomBytes(4096);
    const { file_id, upload } = await createUpload({ content_type: "image/png", size_bytes: bytes.length });

    const shorter = await put(upload, bytes.subarray(0, 4095));
    expect(shorter.status).toBe(403);
    const longer = await put(upload, Buffer.concat([bytes, Buffer.from([0])]));
    expect(longer.status).toBe(403);
    const otherType = await put(upload, bytes, { "Content-Type": "text/html" });
    expect(otherType.status).toBe(403);
    const tampered = new URL(upload.url);
    tampered.pathname = tampered.pathname.replace(file_id, `${file_id}x`);
    expect((await fetch(tampered, { method: "PUT", headers: { "Content-Type": "image/png" }, body: bytes })).status).toBe(403);

    // None of the refused PUTs stored anything, so the upload cannot be completed yet.
    expect((await complete(file_id)).status).toBe(409);
    expect((await put(upload, bytes)).status).toBe(200);
    expect((await complete(file_id)).status).toBe(200);
  });
});

describe("an uploaded file processed by file_id (npm start)", () => {
  it("optimizes the upload, serves the result by its signed URL, deletes the source, and acks the result to 410", async () => {
    const sharp = (await import("sharp")).default;
    const photo = await generatedFile("landscape-6.jpg");
    const { file_id: sourceId, upload } = await createUpload({ filename: "landscape.jpg", content_type: "image/jpeg", size_bytes: photo.length });
    expect((await put(upload, photo)).status).toBe(200);
    expect((await complete(sourceId)).status).toBe(200);

    const res = await fetch(`${edge}/v1/image/optimize`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ source: { file_id: sourceId }, options: { width: 320, format: "png" } }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const result = await res.json<{ file_id: string; url: string; width: number; height: number }>();
    expect(result.url.startsWith(`${edge}/v1/files/${result.file_id}/content?`)).toBe(true);

    const output = new Uint8Array(await (await fetch(result.url)).arrayBuffer());
    const meta = await sharp(output).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 320, result.height]);
    expect(result.width).toBeGreaterThan(result.height);

    expect((await fetch(`${edge}/v1/files/${sourceId}`, { headers: auth })).status).toBe(410);
    expect((await fetch(`${edge}/v1/files/${result.file_id}/ack`, { method: "POST", headers: auth })).status).toBe(200);
    expect((await fetch(result.url)).status).toBe(410);
  });
});
