import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { claimJob, createJob } from "../jobs/job-store.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";

async function queuedJob(caller: TestCaller) {
  return createJob(env.DB, { accountId: caller.accountId, keyId: caller.keyId, operation: "pdf.compress", request: {} });
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
    await claimJob(env.DB, running.id, Date.now(), 60_000);
    const problem = await problemOf(await api(`/v1/jobs/${running.id}/cancel`, { key: caller, method: "POST" }));
    expect(problem.status).toBe(409);
    expect((problem as unknown as { job_status: string }).job_status).toBe("running");
  });

  it("needs the jobs scope", async () => {
    const caller = await seedCaller({ scopes: ["images"] });
    const job = await queuedJob(caller);
    expect((await problemOf(await api(`/v1/jobs/${job.id}`, { key: caller }))).status).toBe(403);
  });
});
