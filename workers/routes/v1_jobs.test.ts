import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { claimJob, createJob, succeedJob } from "../jobs/job-store.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedWorkbookResult } from "../test-support/job-results.ts";

async function queuedJob(caller: TestCaller) {
  return createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "pdf.compress", request: {} });
}

describe("/v1/jobs", () => {
  it("shows a job to its account and 404s it for anyone else", async () => {
    const owner = await seedCaller();
    const job = await queuedJob(owner);
    const res = await api(`/v1/jobs/${job.id}`, { key: owner });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ job_id: job.id, status: "queued", operation: "pdf.compress", status_url: `/v1/jobs/${job.id}` });

    const stranger = await seedCaller();
    expect((await problemOf(await api(`/v1/jobs/${job.id}`, { key: stranger }))).status).toBe(404);
    expect((await problemOf(await api(`/v1/jobs/${job.id}/cancel`, { key: stranger, method: "POST" }))).status).toBe(404);
  });

  it("cancels a queued job and refuses a running one with 409 naming its state", async () => {
    const caller = await seedCaller();
    const queued = await queuedJob(caller);
    const cancelled = await api(`/v1/jobs/${queued.id}/cancel`, { key: caller, method: "POST" });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: "cancelled" });

    const running = await queuedJob(caller);
    await claimJob(env, caller.accountId, running.id, Date.now(), 60_000);
    const problem = await problemOf(await api(`/v1/jobs/${running.id}/cancel`, { key: caller, method: "POST" }));
    expect(problem.status).toBe(409);
    expect((problem as unknown as { job_status: string }).job_status).toBe("running");
  });

  it("needs the jobs scope", async () => {
    const caller = await seedCaller({ scopes: ["images"] });
    const job = await queuedJob(caller);
    expect((await problemOf(await api(`/v1/jobs/${job.id}`, { key: caller }))).status).toBe(403);
  });

  it("declares each operation's job with that operation's result, discriminated by operation", async () => {
    const spec = await (await api("/openapi.json")).json<{ components: { schemas: Record<string, { discriminator?: unknown; properties?: Record<string, unknown> }> } }>();
    const { schemas } = spec.components;
    expect(schemas.Job!.discriminator).toEqual({
      propertyName: "operation",
      mapping: {
        "image.optimize": "#/components/schemas/ImageOptimizeJob",
        "image.batch": "#/components/schemas/ImageBatchJob",
        "pdf.compress": "#/components/schemas/PdfCompressJob",
        "xlsx.generate": "#/components/schemas/XlsxGenerateJob",
      },
    });
    expect(schemas.ImageOptimizeJob!.properties!.result).toEqual({ $ref: "#/components/schemas/ImageResult" });
    expect(schemas.ImageBatchJob!.properties!.result).toEqual({ $ref: "#/components/schemas/ImageBatchResult" });
    expect(schemas.PdfCompressJob!.properties!.result).toEqual({ $ref: "#/components/schemas/PdfCompressResult" });
    expect(schemas.XlsxGenerateJob!.properties!.result).toEqual({ $ref: "#/components/schemas/XlsxResult" });
  });

  it("serves a succeeded job's result in its operation's schema, and never a stored result that is not", async () => {
    const caller = await seedCaller();
    const job = await createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "xlsx.generate", request: {} });
    await claimJob(env, caller.accountId, job.id, Date.now(), 60_000);
    await succeedJob(env, caller.accountId, job.id, generatedWorkbookResult(5_001), null);
    expect(await (await api(`/v1/jobs/${job.id}`, { key: caller })).json()).toMatchObject({
      operation: "xlsx.generate",
      status: "succeeded",
      result: { filename: "report.xlsx", stats: { sheets: 1, rows: 2, cells: 4 }, billing: { charged_micros: 5_001 } },
    });

    const malformed = await createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "xlsx.generate", request: {} });
    await claimJob(env, caller.accountId, malformed.id, Date.now(), 60_000);
    await succeedJob(env, caller.accountId, malformed.id, { billing: { charged_micros: 5_001 } }, null);
    expect((await problemOf(await api(`/v1/jobs/${malformed.id}`, { key: caller }))).status).toBe(500);
  });

  it("answers a stored result an earlier version wrote, and this one no longer reads, with a problem naming the job", async () => {
    const caller = await seedCaller();
    const old = await createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "xlsx.generate", request: {} });
    await claimJob(env, caller.accountId, old.id, Date.now(), 60_000);
    await succeedJob(env, caller.accountId, old.id, { file_id: "file_old", bytes: 123 }, null);
    const problem = await problemOf(await api(`/v1/jobs/${old.id}`, { key: caller }));
    expect(problem.type).toBe("https://pixelpress.dev/problems/job_result_unreadable");
    expect(problem.detail).toContain(old.id);
    expect(problem).toMatchObject({ job_id: old.id, operation: "xlsx.generate" });
  });
});
