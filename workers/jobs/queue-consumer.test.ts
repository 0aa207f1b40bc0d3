import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chargeOnce } from "../billing/charge-once.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { QueueMessage } from "./job-message.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { optimizedImageResult } from "../test-support/job-results.ts";
import type { JobRunner, JobRunners } from "./job-runner.ts";
import { jobRunners } from "./job-runners.ts";
import { cancelJob, claimJob, createJob, loadJob, type JobRecord } from "./job-store.ts";
import { consumeDeadLetters, consumeJobQueue, JOB_LEASE_MS, MAX_JOB_ATTEMPTS } from "./queue-consumer.ts";
import { balanceOf } from "../test-support/account-books.ts";
import { shardRows } from "../test-support/shard-rows.ts";

// The real runners with image.optimize's replaced: these jobs are all image.optimize.
function withRunner(runner: JobRunner<"image.optimize">): JobRunners {
  return { ...jobRunners, "image.optimize": runner };
}

// A runner that does what every real one does at the end: charge with the job's charge key.
function chargingRunner(runs: string[], price = 800): JobRunners {
  return withRunner(async (runEnv, job) => {
    runs.push(job.id);
    await chargeOnce(runEnv, { accountId: job.account_id, chargeKey: jobChargeKey(job.id), operation: "image.optimize", amountMicros: price });
    return optimizedImageResult(price);
  });
}

async function deliver(job: Pick<JobRecord, "id" | "account_id">, runners: JobRunners, attempts = 1) {
  const batch = createMessageBatch<QueueMessage>("pixelpress-jobs", [
    { id: `m-${job.id}-${attempts}`, timestamp: new Date(), attempts, body: { kind: "job", job_id: job.id, account_id: job.account_id } },
  ]);
  const ctx = createExecutionContext();
  await consumeJobQueue(batch, env, runners);
  return getQueueResult(batch, ctx);
}

/** The job as its shard has it now. */
async function stored(job: Pick<JobRecord, "id" | "account_id">): Promise<JobRecord | undefined> {
  return (await loadJob(env, job.account_id, job.id))?.job;
}

async function newJob(balanceMicros = 10_000) {
  const caller = await seedCaller({ balanceMicros });
  const job = await createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "image.optimize", request: { n: 1 } });
  return { caller, job };
}

describe("job lifecycle through the queue consumer", () => {
  it("runs a queued job once, charges once, and records the result", async () => {
    const { caller, job } = await newJob();
    const runs: string[] = [];
    const result = await deliver(job, chargingRunner(runs));
    expect(result.explicitAcks).toEqual([`m-${job.id}-1`]);
    const done = await stored(job);
    expect(done).toMatchObject({ status: "succeeded", progress_done: 1, progress_total: 1, attempts: 1, result: { billing: { charged_micros: 800 } } });
    expect(done!.finished_at).not.toBeNull();
    expect(await balanceOf(caller.accountId)).toBe(9_200);
    expect(runs).toEqual([job.id]);
  });

  it("does not run or charge again when the queue redelivers a finished job's message", async () => {
    const { caller, job } = await newJob();
    const runs: string[] = [];
    await deliver(job, chargingRunner(runs));
    const again = await deliver(job, chargingRunner(runs), 2);
    expect(again.explicitAcks).toHaveLength(1);
    expect(runs).toHaveLength(1);
    expect(await balanceOf(caller.accountId)).toBe(9_200);
  });

  it("shows a running job's progress on GET /v1/jobs/{id} as its runner reports it", async () => {
    const caller = await seedCaller();
    const job = await createJob(env, { accountId: caller.accountId, keyId: caller.keyId, operation: "image.optimize", request: {} });
    const view = async () => (await api(`/v1/jobs/${job.id}`, { key: caller })).json<{ status: string; progress: number | null; progress_detail: unknown }>();
    expect(await view()).toMatchObject({ status: "queued", progress: null, progress_detail: null });
    const seen: unknown[] = [];
    await deliver(
      job,
      withRunner(async (_env, _job, progress) => {
        await progress.start(2);
        seen.push(await view());
        await progress.advance();
        seen.push(await view());
        return optimizedImageResult(0);
      }),
    );
    expect(seen).toEqual([
      expect.objectContaining({ status: "running", progress: 0, progress_detail: { done: 0, total: 2, unit: "stages" } }),
      expect.objectContaining({ status: "running", progress: 50, progress_detail: { done: 1, total: 2, unit: "stages" } }),
    ]);
    expect(await view()).toMatchObject({ status: "succeeded", progress: 100, progress_detail: { done: 2, total: 2, unit: "stages" } });
  });

  it("lets only one of two concurrent deliveries claim the job", async () => {
    const { job } = await newJob();
    const now = Date.now();
    const claims = await Promise.all([claimJob(env, job.account_id, job.id, now, JOB_LEASE_MS), claimJob(env, job.account_id, job.id, now, JOB_LEASE_MS)]);
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
  });

  it("retries a delivery that finds the job running under a live lease, and reruns an abandoned one", async () => {
    const { caller, job } = await newJob();
    const started = Date.now();
    await claimJob(env, job.account_id, job.id, started, JOB_LEASE_MS);
    const runs: string[] = [];
    const blocked = await deliver(job, chargingRunner(runs), 2);
    expect(blocked.retryMessages).toHaveLength(1);
    expect(runs).toEqual([]);

    await shardRows(caller.accountId, "UPDATE jobs SET lease_until = ? WHERE id = ?", started - 1, job.id);
    await deliver(job, chargingRunner(runs), 3);
    expect(runs).toEqual([job.id]);
    expect((await stored(job))!.status).toBe("succeeded");
    expect(await balanceOf(caller.accountId)).toBe(9_200);
  });

  it("fails a job at once on a 4xx problem, without charging", async () => {
    const { caller, job } = await newJob();
    const result = await deliver(
      job,
      withRunner(() => Promise.reject(new ProblemError("unsupported_media_type", "this is a PDF"))),
    );
    expect(result.explicitAcks).toHaveLength(1);
    const failed = await stored(job);
    expect(failed!.status).toBe("failed");
    expect(failed!.error).toMatchObject({ status: 415, detail: "this is a PDF" });
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("retries transient failures with backoff, then fails with a reason after the last attempt", async () => {
    const { caller, job } = await newJob();
    const flaky = withRunner(() => Promise.reject(new ProblemError("origin_unavailable", "origin down")));
    for (let attempt = 1; attempt < MAX_JOB_ATTEMPTS; attempt++) {
      const result = await deliver(job, flaky, attempt);
      expect(result.retryMessages).toHaveLength(1);
      expect((await stored(job))!.status).toBe("queued");
    }
    const last = await deliver(job, flaky, MAX_JOB_ATTEMPTS);
    expect(last.explicitAcks).toHaveLength(1);
    expect(await stored(job)).toMatchObject({ status: "failed", attempts: MAX_JOB_ATTEMPTS, error: { status: 503 } });
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("never runs a cancelled job, and cannot cancel a running one", async () => {
    const { caller, job } = await newJob();
    expect((await cancelJob(env, caller.accountId, job.id)).cancelled).toBe(true);
    const runs: string[] = [];
    await deliver(job, chargingRunner(runs));
    expect(runs).toEqual([]);
    expect((await stored(job))!.status).toBe("cancelled");

    const second = await newJob();
    await claimJob(env, second.job.account_id, second.job.id, Date.now(), JOB_LEASE_MS);
    const refused = await cancelJob(env, second.caller.accountId, second.job.id);
    expect(refused).toMatchObject({ cancelled: false, job: { status: "running" } });
    await expect(cancelJob(env, caller.accountId, second.job.id)).rejects.toMatchObject({ status: 404 });
  });

  it("fails a dead-lettered job that never finished, and leaves finished ones alone", async () => {
    const { job } = await newJob();
    const finished = await newJob();
    await deliver(finished.job, chargingRunner([]));
    const batch = createMessageBatch<QueueMessage>("pixelpress-jobs-dlq", [
      { id: "d1", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: job.id, account_id: job.account_id } },
      { id: "d2", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: finished.job.id, account_id: finished.job.account_id } },
    ]);
    await consumeDeadLetters(batch, env);
    expect(await stored(job)).toMatchObject({ status: "failed", error: { status: 500 } });
    expect((await stored(finished.job))!.status).toBe("succeeded");
  });

  it("runs a job the shared database held before jobs moved, from a message that names only the job", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const jobId = `job_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await env.DB.prepare("INSERT INTO jobs (id, account_id, key_id, operation, status, request, created_at) VALUES (?, ?, ?, 'image.optimize', 'queued', '{}', ?)")
      .bind(jobId, caller.accountId, caller.keyId, Date.now())
      .run();
    const runs: string[] = [];
    const batch = createMessageBatch<QueueMessage>("pixelpress-jobs", [{ id: "old", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: jobId } }]);
    await consumeJobQueue(batch, env, chargingRunner(runs));
    expect(runs).toEqual([jobId]);
    expect(await stored({ id: jobId, account_id: caller.accountId })).toMatchObject({ status: "succeeded", result: { billing: { charged_micros: 800 } } });
    expect(await balanceOf(caller.accountId)).toBe(9_200);
  });

  it("looks again later for a job named only by its id that the report does not have yet, without running anything", async () => {
    const { job } = await newJob();
    const runs: string[] = [];
    const batch = createMessageBatch<QueueMessage>("pixelpress-jobs", [{ id: "early", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: job.id } }]);
    const ctx = createExecutionContext();
    await consumeJobQueue(batch, env, chargingRunner(runs));
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages).toEqual([{ msgId: "early" }]);
    expect(result.explicitAcks).toEqual([]);
    expect(runs).toEqual([]);
    expect((await stored(job))!.status).toBe("queued");
  });
});
