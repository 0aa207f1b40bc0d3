import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Bindings } from "../env.ts";
import type { QueueMessage } from "../jobs/job-message.ts";
import type { JobRunners } from "../jobs/job-runner.ts";
import { jobRunners } from "../jobs/job-runners.ts";
import { consumeJobQueue } from "../jobs/queue-consumer.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf } from "../test-support/account-books.ts";

interface BatchResult {
  results: ({ ref: string; status: "ok"; width: number; format: string; stats: { original_bytes: number; output_bytes: number }; billing: { charged_micros: number } } | { ref: string; status: "failed"; error: { status: number; detail: string } })[];
  stats: { images: number; succeeded: number; failed: number; original_bytes: number; output_bytes: number; ratio: number | null };
  billing: { charged_micros: number };
}

function batch(caller: TestCaller, body: unknown) {
  return api("/v1/image/batch", { key: caller, json: body });
}

async function photo(name = "landscape-1.jpg") {
  return { base64: encodeBase64(await generatedBytes(name)) };
}

describe("POST /v1/image/batch", () => {
  it("returns per-image results in request order, fails only the bad item, and charges only ok items", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const res = await batch(caller, {
      images: [
        { ref: "a", source: await photo() },
        { ref: "bad", source: { base64: encodeBase64(new TextEncoder().encode("%PDF-1.7 not an image")) } },
        { ref: "c", source: await photo("portrait-1.jpg") },
      ],
      options: { width: 100, format: "jpeg" },
      per_image_options: { c: { width: 50 } },
    });
    expect(res.status).toBe(200);
    const body = await res.json<BatchResult>();
    expect(body.results.map((r) => [r.ref, r.status])).toEqual([["a", "ok"], ["bad", "failed"], ["c", "ok"]]);
    const [a, bad, c] = body.results;
    expect(a).toMatchObject({ width: 100, format: "jpeg" });
    expect(c).toMatchObject({ width: 50 });
    expect(bad).toMatchObject({ error: { status: 415 } });
    expect((bad as { error: object }).error).not.toHaveProperty("request_id");
    expect(body.stats).toMatchObject({ images: 3, succeeded: 2, failed: 1 });
    expect(body.billing.charged_micros).toBe(1_600);
    const succeeded = body.results.flatMap((r) => (r.status === "ok" ? [r.stats] : []));
    expect(body.stats.original_bytes).toBe(succeeded.reduce((sum, stats) => sum + stats.original_bytes, 0));
    expect(body.stats.output_bytes).toBe(succeeded.reduce((sum, stats) => sum + stats.output_bytes, 0));
    expect(body.stats.ratio).toBeCloseTo(body.stats.output_bytes / body.stats.original_bytes, 4);
    expect(await balanceOf(caller.accountId)).toBe(8_400);
  });

  it("keeps each source's format family when no format is asked", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const res = await batch(caller, {
      images: [
        { ref: "jpeg", source: await photo() },
        { ref: "png", source: { base64: encodeBase64(await generatedBytes("photo.png")) } },
        { ref: "avif", source: { base64: encodeBase64(await generatedBytes("photo.avif")) } },
      ],
      options: { width: 64 },
    });
    expect(res.status).toBe(200);
    const body = await res.json<BatchResult>();
    expect(body.results.map((r) => [r.ref, r.status === "ok" ? r.format : r.status])).toEqual([
      ["jpeg", "jpeg"],
      ["png", "png"],
      ["avif", "avif"],
    ]);
  });

  it("rejects duplicate refs, unknown per-image refs and invalid per-image options with pointers", async () => {
    const caller = await seedCaller();
    const source = { base64: "AA==" };
    const problem = await problemOf(
      await batch(caller, {
        images: [{ ref: "x", source }, { ref: "x", source }],
        per_image_options: { nope: { width: 10 }, x: { quality: 500 } },
      }),
    );
    expect(problem.status).toBe(400);
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(["/images/1/ref", "/per_image_options/nope", "/per_image_options/x/quality"]);
  });

  it("limits sync batches to 10 and free-plan async batches to 25, naming the limit", async () => {
    const source = { base64: "AA==" };
    const images = (n: number) => Array.from({ length: n }, (_, i) => ({ ref: `r${i}`, source }));
    const pro = await seedCaller();
    const sync = await problemOf(await batch(pro, { images: images(11) }));
    expect(sync.status).toBe(413);
    expect(sync.detail).toMatch(/at most 10/);
    const free = await seedCaller({ plan: "free" });
    const asyncFree = await problemOf(await batch(free, { images: images(26), mode: "async" }));
    expect(asyncFree.status).toBe(413);
    expect(asyncFree.detail).toMatch(/at most 25 images on the free plan/);
  });

  it("sends the origin the batch's request id for every item, and the job's id for an async batch", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const seen: (string | null)[] = [];
    const origin = {
      fetch: (request: Request) => {
        seen.push(request.headers.get("X-Request-Id"));
        return Promise.resolve(new Response("{}", { status: 500, headers: { "Content-Type": "application/problem+json" } }));
      },
    };
    const namespace = { idFromName: () => ({}), get: () => origin };
    const recordingOrigin: Partial<Bindings> = { ORIGIN_URL: "", ORIGIN_CONTAINER: namespace as unknown as Bindings["ORIGIN_CONTAINER"] };
    const body = { images: [{ ref: "a", source: await photo() }, { ref: "b", source: await photo("portrait-1.jpg") }], options: { width: 64 } };
    const request = new Request("http://api.test/v1/image/batch", {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const res = await fetchWithEnv(recordingOrigin, request);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen)).toEqual(new Set([res.headers.get("X-Request-Id")]));

    seen.length = 0;
    const accepted = await batch(caller, { ...body, mode: "async" });
    expect(accepted.status).toBe(202);
    const { job_id } = await accepted.json<{ job_id: string }>();
    const message = createMessageBatch<QueueMessage>("pixelpress-jobs", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id, account_id: caller.accountId } }]);
    await consumeJobQueue(message, { ...env, ...recordingOrigin }, jobRunners);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen)).toEqual(new Set([job_id]));
    logged.mockRestore();
  });

  it("runs an async batch as one job through the queue with the same result shape", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const accepted = await batch(caller, {
      images: [
        { ref: "one", source: await photo() },
        { ref: "broken", source: { base64: encodeBase64(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])) } },
      ],
      options: { width: 64, format: "webp" },
      mode: "async",
    });
    expect(accepted.status).toBe(202);
    const { job_id } = await accepted.json<{ job_id: string }>();
    const message = createMessageBatch<QueueMessage>("pixelpress-jobs", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id, account_id: caller.accountId } }]);
    // What GET /v1/jobs/{id} shows each time the real batch runner reports an image ended.
    const view = async () => (await api(`/v1/jobs/${job_id}`, { key: caller })).json<{ status: string; progress_detail: { done: number } & object }>();
    const seen: Awaited<ReturnType<typeof view>>[] = [];
    const watched: JobRunners = {
      ...jobRunners,
      "image.batch": (runEnv, runJob, progress) =>
        jobRunners["image.batch"](runEnv, runJob, {
          start: async (total) => {
            await progress.start(total);
            seen.push(await view());
          },
          advance: async () => {
            await progress.advance();
            seen.push(await view());
          },
        }),
    };
    await consumeJobQueue(message, env, watched);
    expect(seen.map((s) => s.status)).toEqual(["running", "running", "running"]);
    expect(seen[0]!.progress_detail).toEqual({ done: 0, total: 2, unit: "images" });
    expect(seen[2]!.progress_detail).toEqual({ done: 2, total: 2, unit: "images" });
    const job = await (await api(`/v1/jobs/${job_id}`, { key: caller })).json<{ status: string; progress: number; result: BatchResult }>();
    expect(job.status).toBe("succeeded");
    expect(job.progress).toBe(100);
    expect(job.result.results.map((r) => [r.ref, r.status])).toEqual([["one", "ok"], ["broken", "failed"]]);
    expect(job.result.billing.charged_micros).toBe(800);
    expect(job.result.stats).toMatchObject({ images: 2, succeeded: 1, failed: 1 });
    expect(await balanceOf(caller.accountId)).toBe(9_200);
  });
});
