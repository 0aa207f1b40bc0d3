import { env as testEnv } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import { seal } from "../crypto/seal.ts";
import { claimJob, createJob, succeedJob } from "../jobs/job-store.ts";
import { seedCaller } from "../test-support/api.ts";
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
  const job = await createJob(env.DB, {
    accountId: caller.accountId,
    keyId: caller.keyId,
    operation: "xlsx.generate",
    request: {},
    webhookUrl: url,
    webhookSecretSealed: await seal(env.SIGNING_SECRET, secret),
  });
  await claimJob(env.DB, job.id, Date.now(), 60_000);
  await succeedJob(env.DB, job.id, generatedWorkbookResult(5_001));
  return { job, secret };
}

async function attempts(jobId: string) {
  const { results } = await env.DB.prepare("SELECT attempt, outcome, response_status, next_attempt_at FROM webhook_deliveries WHERE job_id = ? ORDER BY attempt")
    .bind(jobId)
    .all<{ attempt: number; outcome: string; response_status: number | null; next_attempt_at: number | null }>();
  return results;
}

describe("job webhooks", () => {
  it("sends a Standard Webhooks request that the shipped verifier accepts", async () => {
    const { job, secret } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([204]);
    const now = Date.now();
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 1 }, now, fetchImpl)).toBe("delivered");
    const request = received[0]!;
    expect(request.headers.get("webhook-id")).toBe(jobEventId(job.id));
    await expect(verifyWebhook({ headers: request.headers, body: request.body, secret, now: new Date(now) })).resolves.toBeUndefined();
    await expect(verifyWebhook({ headers: request.headers, body: request.body + " ", secret, now: new Date(now) })).rejects.toThrow();
    const payload: unknown = JSON.parse(request.body);
    expect(payload).toMatchObject({ type: "job.succeeded", data: { job_id: job.id, status: "succeeded", result: { billing: { charged_micros: 5_001 } } } });
    expect(await attempts(job.id)).toEqual([{ attempt: 1, outcome: "delivered", response_status: 204, next_attempt_at: null }]);
  });

  it("schedules a retry on a 500, keeps the webhook-id, and records each attempt", async () => {
    const { job } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([500, 200]);
    const now = Date.now();
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 1 }, now, fetchImpl)).toBe("failed");
    const [first] = await attempts(job.id);
    expect(first!.next_attempt_at! - now).toBeGreaterThanOrEqual(4_000);
    expect(first!.next_attempt_at! - now).toBeLessThanOrEqual(6_000);
    expect(queued.filter(({ body }) => body.kind === "webhook" && body.job_id === job.id)).toEqual([
      { body: expect.objectContaining({ kind: "webhook", job_id: job.id, attempt: 2 }) as unknown, delaySeconds: expect.any(Number) as unknown },
    ]);

    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 2 }, now + 6_000, fetchImpl)).toBe("delivered");
    expect(received.map((r) => r.headers.get("webhook-id"))).toEqual([jobEventId(job.id), jobEventId(job.id)]);
    expect((await attempts(job.id)).map((a) => a.outcome)).toEqual(["failed", "delivered"]);
  });

  it("stops after a 410 and ignores a redelivered attempt", async () => {
    const { job } = await finishedJobWithWebhook();
    const { received, fetchImpl } = endpoint([410]);
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 1 }, Date.now(), fetchImpl)).toBe("disabled");
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 1 }, Date.now(), fetchImpl)).toBe("skipped");
    expect(received).toHaveLength(1);
    expect((await attempts(job.id))[0]).toMatchObject({ outcome: "disabled", next_attempt_at: null });
  });

  it("refuses to post to a private address and records why", async () => {
    const { job } = await finishedJobWithWebhook("http://169.254.169.254/latest/meta-data");
    const { received, fetchImpl } = endpoint([200]);
    expect(await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 1 }, Date.now(), fetchImpl)).toBe("failed");
    expect(received).toHaveLength(0);
    const row = await env.DB.prepare("SELECT error FROM webhook_deliveries WHERE job_id = ?").bind(job.id).first<{ error: string }>();
    expect(row!.error).toMatch(/metadata|link-local/);
  });

  it("records why an unreachable endpoint failed, in words, and warns in one line", async () => {
    const { refusedUrl } = inject("testHostileUpstream");
    const { job } = await finishedJobWithWebhook(refusedUrl);
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const errors = vi.spyOn(console, "error");
    try {
      expect(await deliverJobWebhook({ ...env, ALLOW_LOOPBACK_URLS: "true" }, { kind: "webhook", job_id: job.id, attempt: 1 }, Date.now())).toBe("failed");
      const row = await env.DB.prepare("SELECT error FROM webhook_deliveries WHERE job_id = ?").bind(job.id).first<{ error: string }>();
      expect(row!.error).toMatch(/^127\.0\.0\.1:\d+ refused the connection/);
      expect(row!.error).not.toMatch(/internal error|reference =|Network connection lost/);
      expect(warned.mock.calls.map((args) => args.join(" "))).toEqual([`webhook ${jobEventId(job.id)} attempt 1 failed: ${row!.error}`]);
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
    const outcome = await deliverJobWebhook(env, { kind: "webhook", job_id: job.id, attempt: 7, not_before: now + 20 * 3600_000 }, now, fetchImpl);
    expect(outcome).toBe("skipped");
    expect(received).toHaveLength(0);
  });
});
