import { problemBody, ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { announceJobEnd, deliverJobWebhook } from "../webhooks/deliver-webhook.ts";
import type { QueueMessage } from "./job-message.ts";
import { jobProgress } from "./job-progress.ts";
import type { JobRunners } from "./job-runner.ts";
import { claimJob, failJob, failUnfinishedJob, loadJob, requeueJob, succeedJob } from "./job-store.ts";

/** A queue consumer may run 15 minutes; a running job older than this was abandoned. */
export const JOB_LEASE_MS = 15 * 60_000;
/** Attempts of one job on transient failures (origin down, storage errors) before it fails. */
export const MAX_JOB_ATTEMPTS = 4;

function transientRetryDelaySeconds(attempt: number): number {
  return Math.min(300, 10 * 2 ** (attempt - 1));
}

async function runJob(env: Bindings, message: Message<QueueMessage>, jobId: string, runners: JobRunners): Promise<void> {
  const now = Date.now();
  const claim = await claimJob(env.DB, jobId, now, JOB_LEASE_MS);
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
    const result = await runners[job.operation](env, job, jobProgress(env.DB, job.id));
    await succeedJob(env.DB, job.id, result);
  } catch (error) {
    const permanent = error instanceof ProblemError && error.status < 500;
    if (!permanent && job.attempts < MAX_JOB_ATTEMPTS) {
      await requeueJob(env.DB, job.id);
      message.retry({ delaySeconds: transientRetryDelaySeconds(job.attempts) });
      return;
    }
    const problem =
      error instanceof ProblemError
        ? error.toBody()
        : problemBody("internal_error", `The job failed after ${job.attempts} attempts. Not charged.`);
    await failJob(env.DB, job.id, problem);
  }
  await announceJobEnd(env, job.id, job.webhook_url);
  message.ack();
}

export async function consumeJobQueue(batch: MessageBatch<QueueMessage>, env: Bindings, runners: JobRunners): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    if (body.kind === "webhook") {
      await deliverJobWebhook(env, body);
      message.ack();
    } else {
      await runJob(env, message, body.job_id, runners);
    }
  }
}

/**
 * Messages the main consumer could not finish (its isolate kept dying) land here: the job fails
 * with a reason instead of staying queued forever, and its webhook reports that.
 */
export async function consumeDeadLetters(batch: MessageBatch<QueueMessage>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    if (body.kind === "job") {
      const failed = await failUnfinishedJob(
        env.DB,
        body.job_id,
        problemBody("internal_error", "Processing kept failing and was abandoned. Not charged."),
      );
      const job = failed ? await loadJob(env.DB, body.job_id) : null;
      if (job) await announceJobEnd(env, job.id, job.webhook_url);
    }
    message.ack();
  }
}
