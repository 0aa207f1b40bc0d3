import { spawnSync } from "node:child_process";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { createImageUrls, createPixelPress, PixelPressError, verifyWebhook } from "../clients/ts/server.ts";
import { prices } from "../contracts/pricing.ts";
import { signWebhook } from "../contracts/webhooks/signature.ts";
import { generatedFile } from "./fixtures/generated-files.ts";
import { activeKeyId } from "./support/edge-account.ts";

const baseUrl = inject("edgeUrl");
const apiKey = inject("apiKey");
const photo = Buffer.from(await generatedFile("landscape-3.jpg")).toString("base64");

/** A fetch that forwards each request and records it; `lose` drops the answer of chosen attempts after the server handled them. */
function recordingFetch(lose: (attempt: number) => "answer" | "lose-response" | "fake-503" = () => "answer") {
  const seen: { method: string; url: string; idempotencyKey: string | null; status?: number; replayed?: string | null }[] = [];
  const fetchFn = async (request: Request) => {
    const attempt = seen.length;
    const entry: (typeof seen)[number] = { method: request.method, url: request.url, idempotencyKey: request.headers.get("Idempotency-Key") };
    seen.push(entry);
    const behaviour = lose(attempt);
    if (behaviour === "fake-503") return new Response(JSON.stringify({ type: "about:blank", title: "busy", status: 503, detail: "busy" }), { status: 503 });
    const response = await fetch(request);
    entry.status = response.status;
    entry.replayed = response.headers.get("Idempotent-Replayed");
    if (behaviour === "lose-response") throw new TypeError("fetch failed: connection reset");
    return response;
  };
  return { seen, fetch: fetchFn as typeof fetch };
}

describe("generated client types", () => {
  // In a Node process of its own: the generator imports the edge app through Node's module hooks.
  it("are up to date with the app's OpenAPI document (run `npm run generate:client`)", () => {
    const check = spawnSync(process.execPath, ["scripts/generate-client-types.ts", "--check"], { encoding: "utf8" });
    expect(check.stdout + check.stderr).toContain("is up to date");
    expect(check.status).toBe(0);
  });
});

describe("TypeScript client against the running service", () => {
  const fast = { retry: { baseDelayMs: 20 }, poll: { intervalMs: 100 } };

  it("stores a durable file, finds it in the list, and gives it an end again (files.create/list/update)", async () => {
    const client = createPixelPress({ baseUrl, apiKey, ...fast });
    const created = await client.files.create({ source: { base64: photo }, expires_at: null }, { idempotencyKey: `durable-${Date.now()}` });
    expect(created).toMatchObject({ status: "ready", content_type: "image/jpeg", expires_at: null });
    const listed = await client.files.list({ limit: 100 });
    expect(listed.data.find((file) => file.file_id === created.file_id)).toMatchObject({ expires_at: null, size_bytes: created.size_bytes });
    const end = new Date(Date.now() + 3_600_000).toISOString();
    expect(await client.files.update(created.file_id, { expires_at: end })).toMatchObject({ file_id: created.file_id, expires_at: end });
    const refused = await client.files.update(created.file_id, { expires_at: "2000-01-01T00:00:00Z" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PixelPressError);
    expect((refused as PixelPressError).problem.status).toBe(400);
  });

  it("names a preset, serves it by name through the URL builder, and deletes it (presets.put/list/delete)", async () => {
    const client = createPixelPress({ baseUrl, apiKey, ...fast });
    const name = `thumb-${Date.now()}`;
    expect(await client.presets.put(name, "f_png,w_40,h_20,fit_fill")).toMatchObject({ preset: { name, transform: "w_40,h_20,fit_fill,f_png" }, purged: null });
    expect((await client.presets.list()).find((preset) => preset.name === name)?.transform).toBe("w_40,h_20,fit_fill,f_png");
    const file = await client.files.create({ source: { base64: photo } });
    const url = createImageUrls({ baseUrl, keyId: await activeKeyId(baseUrl, apiKey) }).transformUrl(file.file_id, { preset: name, height: 30 });
    expect(url).toContain(`/t_${name},h_30/`);
    const served = await fetch(url);
    expect([served.status, served.headers.get("Content-Type")]).toEqual([200, "image/png"]);
    const { width, height } = await sharp(new Uint8Array(await served.arrayBuffer())).metadata();
    expect([width, height]).toEqual([40, 30]);
    expect((await client.presets.delete(name)).purged.derivatives).toBe(1);
    expect((await fetch(url)).status).toBe(400);
  });

  it("reads the account", async () => {
    const account = await createPixelPress({ baseUrl, apiKey }).account();
    expect(account.account_id).toBe(inject("accountId"));
    expect(account.balance_micros).toBeGreaterThan(0);
  });

  it("optimizes an image synchronously and the result decodes to what was asked", async () => {
    const client = createPixelPress({ baseUrl, apiKey });
    const result = await client.image.optimize({ source: { base64: photo }, options: { width: 320, format: "webp" } });
    expect(result.billing.charged_micros).toBe(prices.image);
    const meta = await sharp(Buffer.from(await (await fetch(result.url!)).arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(["webp", 320]);
  });

  it("waits for an async job by polling /v1/jobs/{id}", async () => {
    const { seen, fetch } = recordingFetch();
    const client = createPixelPress({ baseUrl, apiKey, fetch, ...fast });
    const result = await client.image.optimize({ source: { base64: photo }, options: { width: 200, format: "png" }, mode: "async" }, { wait: true });
    expect(result).toMatchObject({ format: "png", width: 200, billing: { charged_micros: prices.image } });
    expect(seen[0]).toMatchObject({ method: "POST", status: 202 });
    expect(seen.slice(1).every((request) => request.method === "GET" && /\/v1\/jobs\/job_/.test(request.url))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it("generates a spreadsheet as a job and returns the job's result", async () => {
    const client = createPixelPress({ baseUrl, apiKey, ...fast });
    const result = await client.xlsx.generate(
      { filename: "t.xlsx", sheets: [{ name: "S", columns: [{ key: "a", header: "A", type: "number" }], rows: [[1], [2]] }], mode: "async" },
      { wait: true },
    );
    expect(result.filename).toBe("t.xlsx");
    const bytes = new Uint8Array(await (await fetch(result.url!)).arrayBuffer());
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b]);
  });

  it("compresses a PDF as a job through the operation the spec added (client.pdf.compress)", async () => {
    const client = createPixelPress({ baseUrl, apiKey, ...fast });
    const pdf = Buffer.from(await generatedFile("photo-placed-small.pdf"));
    const result = await client.pdf.compress({ source: { base64: pdf.toString("base64") }, options: { profile: "screen" }, mode: "async" }, { wait: true });
    expect(result.stats.profile).toBe("screen");
    const output = Buffer.from(await (await fetch(result.url!)).arrayBuffer());
    expect(output.subarray(0, 5).toString()).toBe("%PDF-");
    expect(output.byteLength).toBe(result.stats.output_bytes);
    expect(output.byteLength).toBeLessThan(pdf.byteLength);
  });

  it("retries a lost response with the same Idempotency-Key, and the server replays it without charging twice", async () => {
    const { seen, fetch } = recordingFetch((attempt) => (attempt === 0 ? "lose-response" : "answer"));
    const client = createPixelPress({ baseUrl, apiKey, fetch, ...fast });
    const before = (await createPixelPress({ baseUrl, apiKey }).account()).balance_micros;
    const result = await client.image.optimize({ source: { base64: photo }, options: { width: 100, format: "jpeg" } });
    const after = (await createPixelPress({ baseUrl, apiKey }).account()).balance_micros;
    expect(seen.map((request) => [request.status, request.replayed])).toEqual([[200, null], [200, "true"]]);
    expect(seen[0]!.idempotencyKey).toMatch(/^pp-/);
    expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
    expect(result).toMatchObject({ width: 100 });
    expect(before - after).toBe(prices.image);
  });

  it("retries a 503 and uses a new key for the next logical call", async () => {
    const { seen, fetch } = recordingFetch((attempt) => (attempt === 0 ? "fake-503" : "answer"));
    const client = createPixelPress({ baseUrl, apiKey, fetch, ...fast });
    await client.image.optimize({ source: { base64: photo }, options: { width: 64 } });
    await client.image.optimize({ source: { base64: photo }, options: { width: 64 } });
    expect(seen.map((request) => request.status)).toEqual([undefined, 200, 200]);
    expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
    expect(seen[2]!.idempotencyKey).not.toBe(seen[0]!.idempotencyKey);
  });

  it("stores a file through a presigned upload and optimizes it by file_id", async () => {
    const client = createPixelPress({ baseUrl, apiKey, ...fast });
    const bytes = await generatedFile("portrait-3.jpg");
    const file = await client.upload(bytes, { contentType: "image/jpeg", filename: "portrait.jpg" });
    expect(file).toMatchObject({ status: "ready", size_bytes: bytes.byteLength });
    const result = await client.image.optimize({ source: { file_id: file.file_id }, options: { width: 90, format: "png" }, mode: "async" }, { wait: true });
    const meta = await sharp(Buffer.from(await (await fetch(result.url!)).arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(["png", 90]);
  });

  it("throws the API's problem as a PixelPressError", async () => {
    const client = createPixelPress({ baseUrl, apiKey });
    const error = await client.image.optimize({ source: { base64: photo }, options: { width: -5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PixelPressError);
    expect((error as PixelPressError).problem).toMatchObject({ status: 400, type: "https://pixelpress.dev/problems/validation_failed" });
    expect((error as PixelPressError).problem.errors?.[0]?.pointer).toBe("/options/width");
  });

  it("re-exports the webhook verifier", async () => {
    const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
    const body = JSON.stringify({ type: "job.succeeded" });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(timestamp), "webhook-signature": await signWebhook({ id: "msg_1", timestamp, body, secret }) };
    await expect(verifyWebhook({ headers, body, secret })).resolves.toBeUndefined();
    await expect(verifyWebhook({ headers, body: body + " ", secret })).rejects.toThrow(/no v1 signature/);
  });
});
