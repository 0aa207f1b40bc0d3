import { env as testEnv, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import { seal } from "../crypto/seal.ts";
import { claimJob, createJob, succeedJob, type JobRecord } from "../jobs/job-store.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { seedCaller } from "../test-support/api.ts";
import { shardRows } from "../test-support/shard-rows.ts";
import { generatedWorkbookResult } from "../test-support/job-results.ts";
import { recordingQueue, type RecordedMessage } from "../test-support/recording-queue.ts";
import { deliverJobWebhook } from "./deliver-webhook.ts";
import { jobEventId } from "./job-event.ts";
import { generateWebhookSecret, verifyWebhook } from "../../contracts/webhooks/signature.ts";

// Retries are scheduled on the job queue some seconds away: kept here, where the tests read them,
// rather than delivered after this file has ended (./recording-queue.ts says why).
const queued: RecordedMessage[] = [];
const env = { ...testEnv, JOBS: recordingQueue(testEnv.JOBS, queued) };

interface Received {
  url: string;
  headers: Headers;
  body: string;
}

// The endpoint on the other side of the network: answers each request with the next status.
function endpoint(statuses: number[]) {
  const received: Received[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    received.push({ url: input instanceof Request ? input.url : String(input), headers: new Headers(init?.headers), body: await new Response(init?.body).text() });
    return new Response(null, { status: statuses.shift() ?? 200 });
  }) as typeof fetch;
  return { received, fetchImpl };
}

async function finishedJobWithWebhook(url = "https://hooks.example.com/pixelpress") {
  const caller = await seedCaller();
  const secret = generateWebhookSecret();
  const job = await createJob(env, {
    accountId: caller.accountId,
    keyId: caller.keyId,
    operation: "xlsx.generate",
    request: {},
    webhookUrl: url,
    webhookSecretSealed: await seal(env.SIGNING_SECRET, secret),
  });
  await claimJob(env, caller.accountId, job.id, Date.now(), 60_000);
  await succeedJob(env, caller.accountId, job.id, generatedWorkbookResult(5_001), null);
  return { job, secret };
}

/** The job's attempts, as its account's shard recorded them. */
function attempts(job: JobRecord) {
  return shardRows<{ attempt: number; outcome: string; response_status: number | null; next_attempt_at: number | null }>(
    job.account_id,
    "SELECT attempt, outcome, response_status, next_attempt_at FROM webhook_deliveries WHERE job_id = ? ORDER BY attempt",
    job.id,
  );
}

async function attemptError(job: JobRecord): Promise<string> {
  const [row] = await shardRows<{ error: string }>(job.account_id, "SELECT error FROM webhook_deliveries WHERE job_id = ?", job.id);
  return row!.error;
}

describe("job webhooks", () => {
  it("sends a Standard Webhooks request that the shipped verifier accepts", async () => {
    const { job, secret } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([204]);
    const now = Date.now();
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 }, now, fetchImpl)).toBe("delivered");
    const request = received[0]!;
    expect(request.headers.get("webhook-id")).toBe(jobEventId(job.id));
    await expect(verifyWebhook({ headers: request.headers, body: request.body, secret, now: new Date(now) })).resolves.toBeUndefined();
    await expect(verifyWebhook({ headers: request.headers, body: request.body + " ", secret, now: new Date(now) })).rejects.toThrow();
    const payload: unknown = JSON.parse(request.body);
    expect(payload).toMatchObject({ type: "job.succeeded", data: { job_id: job.id, status: "succeeded", result: { billing: { charged_micros: 5_001 } } } });
    expect(await attempts(job)).toEqual([{ attempt: 1, outcome: "delivered", response_status: 204, next_attempt_at: null }]);
  });

  it("schedules a retry on a 500, keeps the webhook-id, and records each attempt", async () => {
    const { job } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([500, 200]);
    const now = Date.now();
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 }, now, fetchImpl)).toBe("failed");
    const [first] = await attempts(job);
    expect(first!.next_attempt_at! - now).toBeGreaterThanOrEqual(4_000);
    expect(first!.next_attempt_at! - now).toBeLessThanOrEqual(6_000);
    expect(queued.filter(({ body }) => body.kind === "webhook" && body.job_id === job.id)).toEqual([
      { body: expect.objectContaining({ kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 2 }) as unknown, delaySeconds: expect.any(Number) as unknown },
    ]);

    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 2 }, now + 6_000, fetchImpl)).toBe("delivered");
    expect(received.map((r) => r.headers.get("webhook-id"))).toEqual([jobEventId(job.id), jobEventId(job.id)]);
    expect((await attempts(job)).map((a) => a.outcome)).toEqual(["failed", "delivered"]);
  });

  it("stops after a 410 and ignores a redelivered attempt", async () => {
    const { job } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([410]);
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 }, Date.now(), fetchImpl)).toBe("disabled");
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 }, Date.now(), fetchImpl)).toBe("skipped");
    expect(received).toHaveLength(1);
    expect((await attempts(job))[0]).toMatchObject({ outcome: "disabled", next_attempt_at: null });
  });

  it("refuses to post to a private address and records why", async () => {
    const { job } = await finishedJobWithWebhook("http://169.254.169.254/latest/meta-data");
    const { received, fetchImpl } = endpoint([200]);
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 }, Date.now(), fetchImpl)).toBe("failed");
    expect(received).toHaveLength(0);
    expect(await attemptError(job)).toMatch(/metadata|link-local/);
  });

  it("records why an unreachable endpoint failed, in words, and warns in one line", async () => {
    const { refusedUrl } = inject("testHostileUpstream");
    const { job } = await finishedJobWithWebhook(refusedUrl);
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const errors = vi.spyOn(console, "error");
    try {
      expect(await deliverJobWebhook({ ...env, ALLOW_LOOPBACK_URLS: "true" }, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 }, Date.now())).toBe("failed");
      const error = await attemptError(job);
      expect(error).toMatch(/^127\.0\.0\.1:\d+ refused the connection/);
      expect(error).not.toMatch(/internal error|reference =|Network connection lost/);
      expect(warned.mock.calls.map((args) => args.join(" "))).toEqual([`webhook ${jobEventId(job.id)} attempt 1 failed: ${error}`]);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
      errors.mockRestore();
    }
  });

  it("re-enqueues an attempt whose time has not come (waits beyond the queue's delay cap)", async () => {
    const { job } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([200]);
    const now = Date.now();
    const outcome = await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 7, not_before: now + 20 * 3600_000 }, now, fetchImpl);
    expect(outcome).toBe("skipped");
    expect(received).toHaveLength(0);
  });

  it("finds the job of an attempt enqueued before attempts named their account, through the shared report", async () => {
    const { job } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([200]);
    const legacy = { kind: "webhook" as const, job_id: job.id, attempt: 1 };
    expect(await deliverJobWebhook(env, legacy, Date.now(), fetchImpl)).toBe("skipped");
    await runDurableObjectAlarm(accountShard(env, job.account_id));
    await vi.waitFor(async () => expect(await env.DB.prepare("SELECT status FROM jobs WHERE id = ?").bind(job.id).first("status")).toBe("succeeded"), { timeout: 10_000, interval: 50 });
    expect(await deliverJobWebhook(env, legacy, Date.now(), fetchImpl)).toBe("delivered");
    expect(received).toHaveLength(1);
    expect(await attempts(job)).toEqual([{ attempt: 1, outcome: "delivered", response_status: 200, next_attempt_at: null }]);
  });
});
