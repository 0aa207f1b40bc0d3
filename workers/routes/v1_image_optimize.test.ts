import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf } from "../test-support/account-books.ts";

function optimize(caller: TestCaller, body: unknown, headers: Record<string, string> = {}) {
  return api("/v1/image/optimize", { key: caller, json: body, headers });
}

async function download(url: string): Promise<Uint8Array> {
  const res = await api(new URL(url).pathname + new URL(url).search);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe("POST /v1/image/optimize", () => {
  it("optimizes a base64 source, stores the result for a signed download, and charges 800", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("landscape-3.jpg");
    const res = await optimize(caller, { source: { base64: encodeBase64(photo) }, options: { width: 200, format: "png", output: "both" } });
    expect(res.status).toBe(200);
    const result = await res.json<{
      file_id: string;
      url: string;
      base64: string;
      format: string;
      width: number;
      stats: { original_bytes: number; output_bytes: number; orientation_applied: number };
      billing: { charged_micros: number };
    }>();
    expect(result).toMatchObject({ format: "png", width: 200 });
    expect(result.stats.original_bytes).toBe(photo.length);
    expect(result.stats.orientation_applied).toBe(3);
    const bytes = await download(result.url);
    expect(bytes.length).toBe(result.stats.output_bytes);
    expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    const charged = result.stats.output_bytes < result.stats.original_bytes ? 800 : 0;
    expect(result.billing.charged_micros).toBe(charged);
    expect(await balanceOf(caller.accountId)).toBe(10_000 - charged);
  });

  it("answers a JPEG sent without a format with a JPEG, in one encode", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("landscape-1.jpg");
    const res = await optimize(caller, { source: { base64: encodeBase64(photo) }, options: { width: 160, output: "base64" } });
    expect(res.status).toBe(200);
    const result = await res.json<{ format: string; base64: string; stats: { encodes: number; candidates: unknown; format_chosen_by_auto: boolean } }>();
    expect(result.format).toBe("jpeg");
    expect(result.stats).toMatchObject({ encodes: 1, candidates: null, format_chosen_by_auto: false });
    const bytes = Uint8Array.from(atob(result.base64), (c) => c.charCodeAt(0));
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("reports what format auto tried as the document declares it: format, quality, score, lossless, output_bytes", async () => {
    const caller = await seedCaller();
    const photo = await generatedBytes("landscape-3.jpg");
    const res = await optimize(caller, { source: { base64: encodeBase64(photo) }, options: { width: 120, format: "auto" } });
    expect(res.status).toBe(200);
    const result = await res.json<{ format: string; stats: { output_bytes: number; candidates: { format: string; lossless: boolean; output_bytes: number }[] } }>();
    expect(result.stats.candidates.length).toBeGreaterThanOrEqual(2);
    for (const candidate of result.stats.candidates) expect(Object.keys(candidate).sort()).toEqual(["format", "lossless", "output_bytes", "quality", "score"]);
    const chosen = result.stats.candidates.find((candidate) => candidate.format === result.format)!;
    expect(chosen.output_bytes).toBe(result.stats.output_bytes);
    expect(Math.min(...result.stats.candidates.map((candidate) => candidate.output_bytes))).toBe(result.stats.output_bytes);
  });

  it("returns an output that is not smaller, and does not charge for it", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const tiny = await generatedBytes("bilevel.png");
    const res = await optimize(caller, { source: { base64: encodeBase64(tiny) }, options: { format: "jpeg", quality: 100, output: "base64" } });
    expect(res.status).toBe(200);
    const result = await res.json<{ stats: { output_bytes: number; original_bytes: number }; billing: { charged_micros: number }; file_id: null }>();
    expect(result.stats.output_bytes).toBeGreaterThanOrEqual(result.stats.original_bytes);
    expect(result.billing.charged_micros).toBe(0);
    expect(result.file_id).toBeNull();
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("charges once for concurrent retries with one Idempotency-Key", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("portrait-1.jpg");
    const body = { source: { base64: encodeBase64(photo) }, options: { width: 120, format: "webp" } };
    const responses = await Promise.all(Array.from({ length: 4 }, () => optimize(caller, body, { "Idempotency-Key": "photo-1" })));
    const ok = responses.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(responses.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const replay = await optimize(caller, body, { "Idempotency-Key": "photo-1" });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(caller.accountId)).toBe(9_200);
  });

  it("refuses a PDF with 415 naming what it is, and charges nothing", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const pdf = await generatedBytes("vector-only.pdf");
    const problem = await problemOf(await optimize(caller, { source: { base64: encodeBase64(pdf) } }));
    expect(problem.status).toBe(415);
    expect(problem.detail).toMatch(/PDF/);
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("passes the origin's 4xx for a truncated image through unchanged, at $0", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("landscape-1.jpg");
    const res = await optimize(caller, { source: { base64: encodeBase64(photo.subarray(0, 3000)) } });
    const problem = await problemOf(res);
    expect(problem.status).toBeGreaterThanOrEqual(400);
    expect(problem.status).toBeLessThan(500);
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("validates options and source with pointers", async () => {
    const caller = await seedCaller();
    const problem = await problemOf(await optimize(caller, { source: { base64: "AA==", url: "https://x" }, options: { width: 0, format: "gif" } }));
    expect(problem.status).toBe(400);
    const pointers = problem.errors!.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/options/width", "/options/format"]));
    expect(pointers.some((p) => p.startsWith("/source"))).toBe(true);
  });

  it("answers 402 before any work when the balance cannot cover an image", async () => {
    const caller = await seedCaller({ balanceMicros: 100 });
    const problem = await problemOf(await optimize(caller, { source: { base64: "AA==" } }));
    expect(problem.status).toBe(402);
  });

  it("needs the images scope", async () => {
    const caller = await seedCaller({ scopes: ["pdf"] });
    expect((await problemOf(await optimize(caller, { source: { base64: "AA==" } }))).status).toBe(403);
  });
});

describe("POST /v1/image/optimize, mode async", () => {
  it("answers 202, runs through the queue consumer once, and reports the sync result shape on the job", async () => {
    const { createMessageBatch } = await import("cloudflare:test");
    const { consumeJobQueue } = await import("../jobs/queue-consumer.ts");
    const { jobRunners } = await import("../jobs/job-runners.ts");
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("landscape-8.jpg");
    const res = await optimize(caller, {
      source: { base64: encodeBase64(photo) },
      options: { width: 80, format: "jpeg" },
      mode: "async",
      webhook: { url: "https://hooks.example.com/x" },
    });
    expect(res.status).toBe(202);
    const accepted = await res.json<{ job_id: string; status: string; webhook_secret: string }>();
    expect(accepted.status).toBe("queued");
    expect(accepted.webhook_secret).toMatch(/^whsec_/);

    const deliver = () =>
      consumeJobQueue(
        createMessageBatch("pixelpress-jobs", [{ id: "m", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: accepted.job_id, account_id: caller.accountId } }]),
        env,
        jobRunners,
      );
    await deliver();
    await deliver();
    const job = await (await api(`/v1/jobs/${accepted.job_id}`, { key: caller })).json<{
      status: string;
      result: { width: number; height: number; stats: { orientation_applied: number }; billing: { charged_micros: number }; url: string };
    }>();
    expect(job.status).toBe("succeeded");
    expect(job.result).toMatchObject({ width: 80, stats: { orientation_applied: 8 }, billing: { charged_micros: 800 } });
    expect((await download(job.result.url)).length).toBeGreaterThan(100);
    expect(await balanceOf(caller.accountId)).toBe(9_200);
  });
});
