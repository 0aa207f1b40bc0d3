import type { ProblemBody } from "../../contracts/problems/catalogue.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { newId } from "../crypto/ids.ts";

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";
export type JobOperation = "image.optimize" | "image.batch" | "pdf.compress" | "xlsx.generate";
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
  progress: number | null;
  attempts: number;
  lease_until: number | null;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

type Row = Omit<JobRecord, "request" | "result" | "error"> & { request: string; result: string | null; error: string | null };

function fromRow(row: Row): JobRecord {
  return {
    ...row,
    request: JSON.parse(row.request),
    result: row.result === null ? null : JSON.parse(row.result),
    error: row.error === null ? null : (JSON.parse(row.error) as ProblemBody),
  };
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
  const row = await db
    .prepare(
      `INSERT INTO jobs (id, account_id, key_id, operation, status, request, webhook_url, webhook_secret_sealed, created_at)
       VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?) RETURNING *`,
    )
    .bind(
      newId("job"),
      input.accountId,
      input.keyId,
      input.operation,
      JSON.stringify(input.request),
      input.webhookUrl ?? null,
      input.webhookSecretSealed ?? null,
      now,
    )
    .first<Row>();
  return fromRow(row!);
}

export async function loadJob(db: D1Database, jobId: string): Promise<JobRecord | null> {
  const row = await db.prepare("SELECT * FROM jobs WHERE id = ?").bind(jobId).first<Row>();
  return row ? fromRow(row) : null;
}

/** Another account's job is a 404, exactly like a job that does not exist. */
export async function findJob(db: D1Database, accountId: string, jobId: string): Promise<JobRecord> {
  const row = await db.prepare("SELECT * FROM jobs WHERE id = ? AND account_id = ?").bind(jobId, accountId).first<Row>();
  if (!row) throw new ProblemError("not_found", `No job ${jobId} in this account.`);
  return fromRow(row);
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
  const row = await db
    .prepare(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = COALESCE(started_at, ?2),
         lease_until = ?3
       WHERE id = ?1 AND (status = 'queued' OR (status = 'running' AND lease_until <= ?2))
       RETURNING *`,
    )
    .bind(jobId, now, now + leaseMs)
    .first<Row>();
  if (row) return { claimed: true, job: fromRow(row) };
  const current = await db.prepare("SELECT status, lease_until FROM jobs WHERE id = ?").bind(jobId).first<{ status: JobStatus; lease_until: number | null }>();
  return current
    ? { claimed: false, status: current.status, leaseUntil: current.lease_until }
    : { claimed: false, status: "missing", leaseUntil: null };
}

async function finishRunning(db: D1Database, jobId: string, set: string, values: unknown[], now: number): Promise<boolean> {
  const row = await db
    .prepare(`UPDATE jobs SET ${set}, finished_at = ?, lease_until = NULL WHERE id = ? AND status = 'running' RETURNING id`)
    .bind(...values, now, jobId)
    .first();
  return row !== null;
}

export function succeedJob(db: D1Database, jobId: string, result: unknown, now = Date.now()): Promise<boolean> {
  return finishRunning(db, jobId, "status = 'succeeded', progress = 100, result = ?", [JSON.stringify(result)], now);
}

export function failJob(db: D1Database, jobId: string, problem: ProblemBody, now = Date.now()): Promise<boolean> {
  return finishRunning(db, jobId, "status = 'failed', error = ?", [JSON.stringify(problem)], now);
}

/** Fails a job whatever state it is in, unless it already ended (dead-lettered messages). */
export async function failUnfinishedJob(db: D1Database, jobId: string, problem: ProblemBody, now = Date.now()): Promise<boolean> {
  const row = await db
    .prepare(
      `UPDATE jobs SET status = 'failed', error = ?, finished_at = ?, lease_until = NULL
       WHERE id = ? AND status IN ('queued', 'running') RETURNING id`,
    )
    .bind(JSON.stringify(problem), now, jobId)
    .first();
  return row !== null;
}

/** Hands a running job back to the queue after a transient failure. */
export async function requeueJob(db: D1Database, jobId: string): Promise<void> {
  await db.prepare("UPDATE jobs SET status = 'queued', lease_until = NULL WHERE id = ? AND status = 'running'").bind(jobId).run();
}

export async function setProgress(db: D1Database, jobId: string, progress: number): Promise<void> {
  await db.prepare("UPDATE jobs SET progress = ? WHERE id = ? AND status = 'running'").bind(Math.round(progress), jobId).run();
}

/** Only a queued job can be cancelled; the compare-and-set makes a racing consumer lose cleanly. */
export async function cancelJob(
  db: D1Database,
  accountId: string,
  jobId: string,
  now = Date.now(),
): Promise<{ cancelled: true; job: JobRecord } | { cancelled: false; job: JobRecord }> {
  const row = await db
    .prepare(
      `UPDATE jobs SET status = 'cancelled', finished_at = ? WHERE id = ? AND account_id = ? AND status = 'queued' RETURNING *`,
    )
    .bind(now, jobId, accountId)
    .first<Row>();
  if (row) return { cancelled: true, job: fromRow(row) };
  return { cancelled: false, job: await findJob(db, accountId, jobId) };
}
