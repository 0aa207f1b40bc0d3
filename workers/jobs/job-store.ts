// A job as the edge reads and moves it: every job lives in the one of its account's shards its id
// names (workers/billing/account-branches.ts; ./shard-jobs.ts holds the statements), so each call
// here is one call to that shard, and a job is named by its account and its id. State changes are
// compare-and-set inside the shard, so a racing consumer, cancel or dead-letter handler loses
// cleanly instead of overwriting.
import type { JobOperation } from "../../contracts/operations.ts";
import type { ProblemBody } from "../../contracts/problems/catalogue.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { accountBranches, jobBranch, newJobId, type BranchEnv } from "../billing/account-branches.ts";
import { accountShard, type AccountShards } from "../shards/shard-stub.ts";
import type { ShardDeliveryRow } from "../webhooks/shard-deliveries.ts";
import type { JobDelivered } from "./job-delivered.ts";
import type { ShardJobRow } from "./shard-jobs.ts";

export type { JobOperation };

/** The account's shard that keeps the job. */
export function jobShard(env: AccountShards, accountId: string, jobId: string) {
  return accountShard(env, accountId, jobBranch(jobId));
}

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export const FINAL_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "cancelled"];

export interface JobRecord {
  id: string;
  account_id: string;
  key_id: string;
  operation: JobOperation;
  status: JobStatus;
  request: unknown;
  result: unknown;
  error: ProblemBody | null;
  /** Units of work finished, of `progress_total`; both null until a runner reports. */
  progress_done: number | null;
  progress_total: number | null;
  attempts: number;
  lease_until: number | null;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A job's attempt to deliver its webhook, as the job's view lists it. */
export interface DeliveryRecord {
  attempt: number;
  outcome: "delivered" | "failed" | "disabled";
  response_status: number | null;
  error: string | null;
  attempted_at: number;
  next_attempt_at: number | null;
}

/** The shard's row, its stored problem parsed again on the way out rather than trusted. */
export function jobRecordOf(accountId: string, row: ShardJobRow): JobRecord {
  return {
    id: row.id,
    account_id: accountId,
    key_id: row.keyId,
    operation: row.operation,
    status: row.status,
    request: row.request,
    result: row.result,
    error: row.error === null ? null : problemSchema.parse(row.error),
    progress_done: row.progressDone,
    progress_total: row.progressTotal,
    attempts: row.attempts,
    lease_until: row.leaseUntil,
    webhook_url: row.webhookUrl,
    webhook_secret_sealed: row.webhookSecretSealed,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  };
}

function deliveryRecordOf(row: ShardDeliveryRow): DeliveryRecord {
  return {
    attempt: row.attempt,
    outcome: row.outcome,
    response_status: row.responseStatus,
    error: row.error,
    attempted_at: row.attemptedAt,
    next_attempt_at: row.nextAttemptAt,
  };
}

export async function createJob(
  env: BranchEnv,
  input: {
    accountId: string;
    keyId: string;
    operation: JobOperation;
    request: object;
    webhookUrl?: string | null;
    webhookSecretSealed?: string | null;
  },
  now = Date.now(),
): Promise<JobRecord> {
  const id = newJobId(env);
  const row = await jobShard(env, input.accountId, id).createJob(input.accountId, {
    id,
    keyId: input.keyId,
    operation: input.operation,
    request: input.request,
    webhookUrl: input.webhookUrl ?? null,
    webhookSecretSealed: input.webhookSecretSealed ?? null,
    createdAt: now,
  });
  return jobRecordOf(input.accountId, row);
}

/** Whether a job id names one of the account's shards; one that names another holds no job, and wakes no object. */
function namesUsedShard(env: BranchEnv, jobId: string): boolean {
  return jobBranch(jobId) < accountBranches(env);
}

/** The job with its webhook's attempts; null for no such job in the account. */
export async function loadJob(env: BranchEnv, accountId: string, jobId: string): Promise<{ job: JobRecord; deliveries: DeliveryRecord[] } | null> {
  if (!namesUsedShard(env, jobId)) return null;
  const found = await jobShard(env, accountId, jobId).job(accountId, jobId);
  return found && { job: jobRecordOf(accountId, found.job), deliveries: found.deliveries.map(deliveryRecordOf) };
}

/** Another account's job is a 404, exactly like a job that does not exist. */
export async function findJob(env: BranchEnv, accountId: string, jobId: string): Promise<{ job: JobRecord; deliveries: DeliveryRecord[] }> {
  const found = await loadJob(env, accountId, jobId);
  if (!found) throw new ProblemError("not_found", `No job ${jobId} in this account.`);
  return found;
}

export type ClaimOutcome =
  | { claimed: true; job: JobRecord }
  | { claimed: false; status: JobStatus; leaseUntil: number | null }
  | { claimed: false; status: "missing"; leaseUntil: null };

/**
 * Moves a job to running in one compare-and-set: a queued job, or a running one whose lease has
 * passed (its consumer died). Two deliveries of the same message cannot both win.
 */
export async function claimJob(env: AccountShards, accountId: string, jobId: string, now: number, leaseMs: number): Promise<ClaimOutcome> {
  const claim = await jobShard(env, accountId, jobId).claimJob(accountId, jobId, now, leaseMs);
  return claim.claimed ? { claimed: true, job: jobRecordOf(accountId, claim.job) } : claim;
}

/** A job that succeeded has done all its work, whether or not its runner counted it; `delivered` is what its result says it charged and delivered. */
export function succeedJob(env: AccountShards, accountId: string, jobId: string, result: object, delivered: JobDelivered | null, now = Date.now()): Promise<boolean> {
  return jobShard(env, accountId, jobId).finishJob(accountId, jobId, { status: "succeeded", result, delivered }, now);
}

export function failJob(env: AccountShards, accountId: string, jobId: string, problem: ProblemBody, now = Date.now()): Promise<boolean> {
  return jobShard(env, accountId, jobId).finishJob(accountId, jobId, { status: "failed", error: problem }, now);
}

/** Fails a job whatever state it is in, unless it already ended (dead-lettered messages); the failed job, or null. */
export async function failUnfinishedJob(env: AccountShards, accountId: string, jobId: string, problem: ProblemBody, now = Date.now()): Promise<JobRecord | null> {
  const row = await jobShard(env, accountId, jobId).failUnfinishedJob(accountId, jobId, problem, now);
  return row && jobRecordOf(accountId, row);
}

/** Hands a running job back to the queue after a transient failure. */
export async function requeueJob(env: AccountShards, accountId: string, jobId: string): Promise<void> {
  await jobShard(env, accountId, jobId).requeueJob(accountId, jobId);
}

/**
 * Records `done` of `total` units finished; only a running job moves. Items finishing together
 * may land out of order, so a count never goes back, except to 0 when a (re)run starts.
 */
export async function setProgress(env: AccountShards, accountId: string, jobId: string, done: number, total: number): Promise<void> {
  await jobShard(env, accountId, jobId).setJobProgress(accountId, jobId, done, total);
}

/** Only a queued job can be cancelled; the compare-and-set makes a racing consumer lose cleanly. */
export async function cancelJob(
  env: BranchEnv,
  accountId: string,
  jobId: string,
  now = Date.now(),
): Promise<{ cancelled: true; job: JobRecord } | { cancelled: false; job: JobRecord }> {
  const outcome = namesUsedShard(env, jobId) ? await jobShard(env, accountId, jobId).cancelJob(accountId, jobId, now) : { cancelled: false, job: null };
  if (!outcome.job) throw new ProblemError("not_found", `No job ${jobId} in this account.`);
  const job = jobRecordOf(accountId, outcome.job);
  return outcome.cancelled ? { cancelled: true, job } : { cancelled: false, job };
}
