// Every statement on `jobs`. State changes are compare-and-set updates, so a racing consumer,
// cancel or dead-letter handler loses cleanly instead of overwriting.
import { and, eq, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { JobOperation } from "../../contracts/operations.ts";
import type { ProblemBody } from "../../contracts/problems/catalogue.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { newId } from "../crypto/ids.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { orm } from "../db/orm.ts";
import { jobs } from "../db/schema.ts";

export type { JobOperation };
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

const jobColumns = {
  id: jobs.id,
  account_id: jobs.accountId,
  key_id: jobs.keyId,
  operation: jobs.operation,
  status: jobs.status,
  request: jobs.request,
  result: jobs.result,
  error: jobs.error,
  progress_done: jobs.progressDone,
  progress_total: jobs.progressTotal,
  attempts: jobs.attempts,
  lease_until: jobs.leaseUntil,
  webhook_url: jobs.webhookUrl,
  webhook_secret_sealed: jobs.webhookSecretSealed,
  created_at: jobs.createdAt,
  started_at: jobs.startedAt,
  finished_at: jobs.finishedAt,
};

type Row = Omit<JobRecord, "error"> & { error: unknown };

/** The stored problem is JSON written by this code, parsed again on the way out rather than trusted. */
function asRecord(row: Row): JobRecord {
  return { ...row, error: row.error === null ? null : problemSchema.parse(row.error) };
}

export async function createJob(
  db: D1Database,
  input: {
    accountId: string;
    keyId: string;
    operation: JobOperation;
    request: unknown;
    webhookUrl?: string | null;
    webhookSecretSealed?: string | null;
  },
  now = Date.now(),
): Promise<JobRecord> {
  const row = await orm(db)
    .insert(jobs)
    .values({
      id: newId("job"),
      accountId: input.accountId,
      keyId: input.keyId,
      operation: input.operation,
      status: "queued",
      request: input.request,
      webhookUrl: input.webhookUrl ?? null,
      webhookSecretSealed: input.webhookSecretSealed ?? null,
      createdAt: now,
    })
    .returning(jobColumns)
    .get();
  return asRecord(row);
}

export async function loadJob(db: D1Database, jobId: string): Promise<JobRecord | null> {
  const row = await orm(db).select(jobColumns).from(jobs).where(eq(jobs.id, jobId)).get();
  return row ? asRecord(row) : null;
}

/** Another account's job is a 404, exactly like a job that does not exist. */
export async function findJob(db: D1Database, accountId: string, jobId: string): Promise<JobRecord> {
  const row = await orm(db).select(jobColumns).from(jobs).where(and(eq(jobs.id, jobId), eq(jobs.accountId, accountId))).get();
  if (!row) throw new ProblemError("not_found", `No job ${jobId} in this account.`);
  return asRecord(row);
}

export type ClaimOutcome =
  | { claimed: true; job: JobRecord }
  | { claimed: false; status: JobStatus; leaseUntil: number | null }
  | { claimed: false; status: "missing"; leaseUntil: null };

/**
 * Moves a job to running in one compare-and-set: a queued job, or a running one whose lease has
 * passed (its consumer died). Two deliveries of the same message cannot both win.
 */
export async function claimJob(db: D1Database, jobId: string, now: number, leaseMs: number): Promise<ClaimOutcome> {
  const handle = orm(db);
  const row = await handle
    .update(jobs)
    .set({
      status: "running",
      attempts: sql`${jobs.attempts} + 1`,
      startedAt: sql`COALESCE(${jobs.startedAt}, ${now})`,
      leaseUntil: now + leaseMs,
    })
    .where(and(eq(jobs.id, jobId), or(eq(jobs.status, "queued"), and(eq(jobs.status, "running"), lte(jobs.leaseUntil, now)))))
    .returning(jobColumns)
    .get();
  if (row) return { claimed: true, job: asRecord(row) };
  const current = await handle.select({ status: jobs.status, leaseUntil: jobs.leaseUntil }).from(jobs).where(eq(jobs.id, jobId)).get();
  return current ? { claimed: false, ...current } : { claimed: false, status: "missing", leaseUntil: null };
}

async function finishRunning(
  db: D1Database,
  jobId: string,
  set: { status: "succeeded" | "failed"; result?: unknown; error?: ProblemBody; progressDone?: SQL; progressTotal?: SQL },
  now: number,
): Promise<boolean> {
  const row = await orm(db)
    .update(jobs)
    .set({ ...set, finishedAt: now, leaseUntil: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running")))
    .returning({ id: jobs.id })
    .get();
  return row !== undefined;
}

/** A job that succeeded has done all its work, whether or not its runner counted it. */
export function succeedJob(db: D1Database, jobId: string, result: unknown, now = Date.now()): Promise<boolean> {
  const total = sql`COALESCE(${jobs.progressTotal}, 1)`;
  return finishRunning(db, jobId, { status: "succeeded", result, progressDone: total, progressTotal: total }, now);
}

export function failJob(db: D1Database, jobId: string, problem: ProblemBody, now = Date.now()): Promise<boolean> {
  return finishRunning(db, jobId, { status: "failed", error: problem }, now);
}

/** Fails a job whatever state it is in, unless it already ended (dead-lettered messages). */
export async function failUnfinishedJob(db: D1Database, jobId: string, problem: ProblemBody, now = Date.now()): Promise<boolean> {
  const row = await orm(db)
    .update(jobs)
    .set({ status: "failed", error: problem, finishedAt: now, leaseUntil: null })
    .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["queued", "running"])))
    .returning({ id: jobs.id })
    .get();
  return row !== undefined;
}

/** Hands a running job back to the queue after a transient failure. */
export async function requeueJob(db: D1Database, jobId: string): Promise<void> {
  await orm(db).update(jobs).set({ status: "queued", leaseUntil: null }).where(and(eq(jobs.id, jobId), eq(jobs.status, "running"))).run();
}

/**
 * Records `done` of `total` units finished; only a running job moves. Items finishing together
 * may land out of order, so a count never goes back, except to 0 when a (re)run starts.
 */
export async function setProgress(db: D1Database, jobId: string, done: number, total: number): Promise<void> {
  await orm(db)
    .update(jobs)
    .set({ progressDone: done === 0 ? 0 : sql`MAX(COALESCE(${jobs.progressDone}, 0), ${done})`, progressTotal: total })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running")))
    .run();
}

/** Only a queued job can be cancelled; the compare-and-set makes a racing consumer lose cleanly. */
export async function cancelJob(
  db: D1Database,
  accountId: string,
  jobId: string,
  now = Date.now(),
): Promise<{ cancelled: true; job: JobRecord } | { cancelled: false; job: JobRecord }> {
  const row = await orm(db)
    .update(jobs)
    .set({ status: "cancelled", finishedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.accountId, accountId), eq(jobs.status, "queued")))
    .returning(jobColumns)
    .get();
  if (row) return { cancelled: true, job: asRecord(row) };
  return { cancelled: false, job: await findJob(db, accountId, jobId) };
}

/** Jobs created at or after `since`, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function jobsSince(db: D1Database, since: number) {
  return orm(db)
    .select({
      id: jobs.id,
      account_id: jobs.accountId,
      operation: jobs.operation,
      status: jobs.status,
      result: jobs.result,
      error: jobs.error,
      webhook_url: jobs.webhookUrl,
      created_at: jobs.createdAt,
      finished_at: jobs.finishedAt,
    })
    .from(jobs)
    .where(gte(jobs.createdAt, since));
}
