import type { Bindings } from "../env.ts";
import { unseal } from "../crypto/seal.ts";
import type { QueueMessage } from "../jobs/job-message.ts";
import { jobRecordOf, jobShard } from "../jobs/job-store.ts";
import { messageAccount } from "../jobs/message-account.ts";
import { requestFailure } from "../sources/connection-failure.ts";
import { checkWebhookUrl } from "./webhook-url.ts";
import { jobEventId, jobEventPayload } from "./job-event.ts";
import { nextRetryDelayMs, QUEUE_MAX_DELAY_S } from "./retry-schedule.ts";
import { signWebhook, WEBHOOK_HEADERS } from "../../contracts/webhooks/signature.ts";

const DELIVERY_TIMEOUT_MS = 10_000;

type WebhookEnv = Pick<Bindings, "DB" | "JOBS" | "SIGNING_SECRET" | "ALLOW_LOOPBACK_URLS" | "ACCOUNT_SHARDS">;

export type DeliveryOutcome = "delivered" | "failed" | "disabled" | "skipped";

/** Queues the first attempt for a job that just ended, if it has somewhere to report to. */
export async function announceJobEnd(env: Pick<Bindings, "JOBS">, job: { id: string; account_id: string; webhook_url: string | null }): Promise<void> {
  if (job.webhook_url) await env.JOBS.send({ kind: "webhook", job_id: job.id, account_id: job.account_id, attempt: 1 });
}

async function enqueueAttempt(env: WebhookEnv, message: Extract<QueueMessage, { kind: "webhook" }>, delayMs: number): Promise<void> {
  const delaySeconds = Math.min(QUEUE_MAX_DELAY_S, Math.max(0, Math.ceil(delayMs / 1000)));
  await env.JOBS.send(message, { delaySeconds });
}

/**
 * One delivery attempt of a job's end event, signed per Standard Webhooks. Every attempt is
 * recorded in the job's shard; a non-2xx answer or a timeout schedules the next one, a 410 stops
 * them. Redelivery of the same attempt by the queue is recognised by the (job, attempt) key and skipped.
 */
export async function deliverJobWebhook(
  env: WebhookEnv,
  message: Extract<QueueMessage, { kind: "webhook" }>,
  now = Date.now(),
  fetchImpl: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  if (message.not_before && message.not_before > now) {
    await enqueueAttempt(env, message, message.not_before - now);
    return "skipped";
  }
  const accountId = await messageAccount(env, message);
  if (accountId === null) return "skipped";
  const shard = jobShard(env, accountId, message.job_id);
  const found = await shard.webhookAttempt(accountId, message.job_id, message.attempt);
  if (!found || found.attempted) return "skipped";
  const job = jobRecordOf(accountId, found.job);
  if (!job.webhook_url || !job.webhook_secret_sealed) return "skipped";
  const messageId = jobEventId(job.id);

  const body = JSON.stringify(jobEventPayload(job, now));
  const timestamp = Math.floor(now / 1000);
  const secret = await unseal(env.SIGNING_SECRET, job.webhook_secret_sealed);
  let responseStatus: number | null = null;
  let error: string | null = null;
  try {
    const url = checkWebhookUrl(env, job.webhook_url, "/webhook/url");
    const res = await fetchImpl(url, {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "PixelPress-Webhooks/1",
        [WEBHOOK_HEADERS.id]: messageId,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: await signWebhook({ id: messageId, timestamp, body, secret }),
      },
    });
    responseStatus = res.status;
    await res.body?.cancel();
  } catch (cause) {
    error = await requestFailure(job.webhook_url, cause);
  }

  const delivered = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
  const outcome = delivered ? "delivered" : responseStatus === 410 ? "disabled" : "failed";
  const retryIn = outcome === "failed" ? nextRetryDelayMs(message.attempt) : null;
  if (outcome === "failed" && error === null) error = `endpoint answered ${responseStatus}`;
  // An endpoint that fails is the customer's condition: one line at warn level, no stack.
  if (error !== null) console.warn(`webhook ${messageId} attempt ${message.attempt} failed: ${error}`);
  await shard.recordWebhookAttempt(accountId, {
    messageId,
    jobId: job.id,
    attempt: message.attempt,
    url: job.webhook_url,
    outcome,
    responseStatus,
    error,
    attemptedAt: now,
    nextAttemptAt: retryIn === null ? null : now + retryIn,
  });
  if (retryIn !== null) {
    await enqueueAttempt(env, { kind: "webhook", job_id: job.id, account_id: accountId, attempt: message.attempt + 1, not_before: now + retryIn }, retryIn);
  }
  return outcome;
}
