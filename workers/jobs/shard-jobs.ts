// Every statement on an account shard's `jobs` and `job_changes` (workers/shards/shard-schema.ts).
// The shard is the account's own database and runs one call at a time; state changes are still
// compare-and-set updates, so a redelivered message, a cancel or a dead-letter handler that comes
// second loses cleanly instead of overwriting. Each change of a job's state also records the job as
// changed, for the shared report (./d1-jobs.ts), which the ledger feed brings up to date.
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { ProblemBody } from "../../contracts/problems/catalogue.ts";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardJobChanges as changes, shardJobs as jobs } from "../shards/shard-schema.ts";
import type { JobDelivered } from "./job-delivered.ts";

/** A job's row as its account's shard keeps it. */
export type ShardJobRow = typeof jobs.$inferSelect;
/** What a new job's row is made of: the shard sets its state. */
export type NewShardJob = Pick<ShardJobRow, "id" | "keyId" | "operation" | "request" | "webhookUrl" | "webhookSecretSealed" | "createdAt">;

export type ShardClaim =
  | { claimed: true; job: ShardJobRow }
  | { claimed: false; status: ShardJobRow["status"]; leaseUntil: number | null }
  | { claimed: false; status: "missing"; leaseUntil: null };

/** A job changed since the report last heard, as it is now. */
export interface JobChange {
  seq: number;
  row: ShardJobRow;
}

/** Records the job as changed; a new row each time, so a change made while an earlier one is being sent is sent again. */
export function touchJob(db: ShardDb, jobId: string): void {
  db.delete(changes).where(eq(changes.jobId, jobId)).run();
  db.insert(changes).values({ jobId }).run();
}

function changed(db: ShardDb, row: ShardJobRow | undefined): ShardJobRow | null {
  if (!row) return null;
  touchJob(db, row.id);
  return row;
}

export function insertShardJob(db: ShardDb, job: NewShardJob): ShardJobRow {
  const row = db.insert(jobs).values({ ...job, status: "queued" }).returning().get();
  touchJob(db, row.id);
  return row;
}

export function findShardJob(db: ShardDb, jobId: string): ShardJobRow | null {
  return db.select().from(jobs).where(eq(jobs.id, jobId)).get() ?? null;
}

/**
 * Moves a job to running: a queued job, or a running one whose lease has passed (its consumer
 * died). Two deliveries of the same message cannot both win.
 */
export function claimShardJob(db: ShardDb, jobId: string, now: number, leaseMs: number): ShardClaim {
  const row = db
    .update(jobs)
    .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, startedAt: sql`COALESCE(${jobs.startedAt}, ${now})`, leaseUntil: now + leaseMs })
    .where(and(eq(jobs.id, jobId), or(eq(jobs.status, "queued"), and(eq(jobs.status, "running"), lte(jobs.leaseUntil, now)))))
    .returning()
    .get();
  const claimed = changed(db, row);
  if (claimed) return { claimed: true, job: claimed };
  const current = findShardJob(db, jobId);
  return current ? { claimed: false, status: current.status, leaseUntil: current.leaseUntil } : { claimed: false, status: "missing", leaseUntil: null };
}

/** How a running job ended: a job that succeeded has done all its work, whether or not its runner counted it. */
export type JobEnd = { status: "succeeded"; result: object; delivered: JobDelivered | null } | { status: "failed"; error: ProblemBody };

export function finishShardJob(db: ShardDb, jobId: string, end: JobEnd, now: number): boolean {
  const total = sql`COALESCE(${jobs.progressTotal}, 1)`;
  const set = end.status === "succeeded" ? { ...end, progressDone: total, progressTotal: total } : end;
  const row = db
    .update(jobs)
    .set({ ...set, finishedAt: now, leaseUntil: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running")))
    .returning()
    .get();
  return changed(db, row) !== null;
}

/** Fails a job whatever state it is in, unless it already ended (dead-lettered messages); the failed job, or null. */
export function failUnfinishedShardJob(db: ShardDb, jobId: string, error: ProblemBody, now: number): ShardJobRow | null {
  const row = db
    .update(jobs)
    .set({ status: "failed", error, finishedAt: now, leaseUntil: null })
    .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["queued", "running"])))
    .returning()
    .get();
  return changed(db, row);
}

/** Hands a running job back to the queue after a transient failure. */
export function requeueShardJob(db: ShardDb, jobId: string): void {
  changed(db, db.update(jobs).set({ status: "queued", leaseUntil: null }).where(and(eq(jobs.id, jobId), eq(jobs.status, "running"))).returning().get());
}

/**
 * Records `done` of `total` units finished; only a running job moves. Items finishing together
 * may land out of order, so a count never goes back, except to 0 when a (re)run starts. The report
 * has no progress, so this is no change for it.
 */
export function setShardJobProgress(db: ShardDb, jobId: string, done: number, total: number): void {
  db.update(jobs)
    .set({ progressDone: done === 0 ? 0 : sql`MAX(COALESCE(${jobs.progressDone}, 0), ${done})`, progressTotal: total })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running")))
    .run();
}

/** Only a queued job can be cancelled: the cancelled job, or null when it was not queued. */
export function cancelShardJob(db: ShardDb, jobId: string, now: number): ShardJobRow | null {
  return changed(db, db.update(jobs).set({ status: "cancelled", finishedAt: now }).where(and(eq(jobs.id, jobId), eq(jobs.status, "queued"))).returning().get());
}

/** Rows the shared database held before the account had a shard: the report has them already. */
export function importShardJobs(db: ShardDb, rows: ShardJobRow[]): void {
  for (const row of rows) db.insert(jobs).values(row).onConflictDoNothing().run();
}

/** Up to `limit` jobs changed since the report last heard, oldest change first, each as it is now. */
export function unfedJobChanges(db: ShardDb, limit: number): JobChange[] {
  const touched = db.select().from(changes).orderBy(asc(changes.seq)).limit(limit).all();
  return touched.flatMap((change) => {
    const row = findShardJob(db, change.jobId);
    return row ? [{ seq: change.seq, row }] : [];
  });
}

/** Forgets the changes the report now has; a job changed again since keeps its newer entry. */
export function markJobsFed(db: ShardDb, throughSeq: number): void {
  db.delete(changes).where(sql`${changes.seq} <= ${throughSeq}`).run();
}
