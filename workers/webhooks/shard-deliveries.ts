// Every statement on an account shard's `webhook_deliveries`: one row per attempt of a job's end
// event. Recording an attempt marks its job changed, so the feed carries the attempt to the shared
// report (./d1-deliveries.ts) with the job.
import { and, asc, eq, inArray } from "drizzle-orm";
import { touchJob } from "../jobs/shard-jobs.ts";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardWebhookDeliveries as deliveries } from "../shards/shard-schema.ts";

export type ShardDeliveryRow = typeof deliveries.$inferSelect;

/** The job's attempts, in attempt order. */
export function listShardDeliveries(db: ShardDb, jobId: string): ShardDeliveryRow[] {
  return db.select().from(deliveries).where(eq(deliveries.jobId, jobId)).orderBy(asc(deliveries.attempt)).all();
}

/** Every attempt of the jobs, in attempt order. */
export function deliveriesOfJobs(db: ShardDb, jobIds: string[]): ShardDeliveryRow[] {
  return jobIds.length === 0 ? [] : db.select().from(deliveries).where(inArray(deliveries.jobId, jobIds)).orderBy(asc(deliveries.attempt)).all();
}

/** Whether this attempt already ran: the queue may deliver its message twice. */
export function shardDeliveryAttempted(db: ShardDb, jobId: string, attempt: number): boolean {
  return db.select({ attempt: deliveries.attempt }).from(deliveries).where(and(eq(deliveries.jobId, jobId), eq(deliveries.attempt, attempt))).get() !== undefined;
}

/** Records an attempt; a second record of the same (job, attempt) is ignored. */
export function recordShardDelivery(db: ShardDb, delivery: ShardDeliveryRow): void {
  const inserted = db.insert(deliveries).values(delivery).onConflictDoNothing().returning({ attempt: deliveries.attempt }).get();
  if (inserted) touchJob(db, delivery.jobId);
}

/** Attempts the shared database held before the account had a shard: the report has them already. */
export function importShardDeliveries(db: ShardDb, rows: ShardDeliveryRow[]): void {
  for (const row of rows) db.insert(deliveries).values(row).onConflictDoNothing().run();
}
