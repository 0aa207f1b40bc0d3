import { problemBody, ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { announceJobEnd, deliverJobWebhook } from "../webhooks/deliver-webhook.ts";
import { deliveredByJob } from "./delivered-by-job.ts";
import type { QueueMessage } from "./job-message.ts";
import { jobProgress } from "./job-progress.ts";
import type { JobRunners } from "./job-runner.ts";
import { claimJob, failJob, failUnfinishedJob, requeueJob, succeedJob } from "./job-store.ts";
import { messageAccount } from "./message-account.ts";

/** A queue consumer may run 15 minutes; a running job older than this was abandoned. */
export const JOB_LEASE_MS = 15 * 60_000;
/** Attempts of one job on transient failures (origin down, storage errors) before it fails. */
export const MAX_JOB_ATTEMPTS = 4;
/** A message that names no account, for a job the report does not have yet (it is fed a moment after the job's creation), is looked at again this much later. */
const UNREPORTED_JOB_RETRY_S = 5;

function transientRetryDelaySeconds(attempt: number): number {
  return Math.min(300, 10 * 2 ** (attempt - 1));
}

async function runJob(env: Bindings, message: Message<QueueMessage>, accountId: string, jobId: string, runners: JobRunners): Promise<void> {
  const now = Date.now();
  const claim = await claimJob(env, accountId, jobId, now, JOB_LEASE_MS);
  if (!claim.claimed) {
    // Someone else holds a live lease: look again when it would have run out.
    if (claim.status === "running" && claim.leaseUntil !== null) {
      message.retry({ delaySeconds: Math.max(1, Math.ceil((claim.leaseUntil - now) / 1000)) });
    } else {
      message.ack();
    }
    return;
  }
  const job = claim.job;
  try {
    const result = await runners[job.operation](env, job, jobProgress(env, accountId, job.id));
    await succeedJob(env, accountId, job.id, result, deliveredByJob(job.operation, result));
  } catch (error) {
    const permanent = error instanceof ProblemError && error.status < 500;
    if (!permanent && job.attempts < MAX_JOB_ATTEMPTS) {
      await requeueJob(env, accountId, job.id);
      message.retry({ delaySeconds: transientRetryDelaySeconds(job.attempts) });
      return;
    }
    const problem =
      error instanceof ProblemError
        ? error.toBody()
        : problemBody("internal_error", `The job failed after ${job.attempts} attempts. Not charged.`);
    await failJob(env, accountId, job.id, problem);
  }
  await announceJobEnd(env, job);
  message.ack();
}

export async function consumeJobQueue(batch: MessageBatch<QueueMessage>, env: Bindings, runners: JobRunners): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    if (body.kind === "webhook") {
      await deliverJobWebhook(env, body);
      message.ack();
      continue;
    }
    const accountId = await messageAccount(env, body);
    if (accountId === null) message.retry({ delaySeconds: UNREPORTED_JOB_RETRY_S });
    else await runJob(env, message, accountId, body.job_id, runners);
  }
}

/**
 * Messages the main consumer could not finish (its isolate kept dying) land here: the job fails
 * with a reason instead of staying queued forever, and its webhook reports that.
 */
export async function consumeDeadLetters(batch: MessageBatch<QueueMessage>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    const accountId = body.kind === "job" ? await messageAccount(env, body) : null;
    if (body.kind === "job" && accountId !== null) {
      const failed = await failUnfinishedJob(env, accountId, body.job_id, problemBody("internal_error", "Processing kept failing and was abandoned. Not charged."));
      if (failed) await announceJobEnd(env, failed);
    }
    message.ack();
  }
}
