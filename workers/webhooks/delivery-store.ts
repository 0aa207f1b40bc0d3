// Every statement on `webhook_deliveries`: one row per attempt of a job's end event.
import { and, asc, eq } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { webhookDeliveries } from "../db/schema.ts";

export interface DeliveryRecord {
  attempt: number;
  outcome: "delivered" | "failed" | "disabled";
  response_status: number | null;
  error: string | null;
  attempted_at: number;
  next_attempt_at: number | null;
}

export async function listDeliveries(db: D1Database, jobId: string): Promise<DeliveryRecord[]> {
  return orm(db)
    .select({
      attempt: webhookDeliveries.attempt,
      outcome: webhookDeliveries.outcome,
      response_status: webhookDeliveries.responseStatus,
      error: webhookDeliveries.error,
      attempted_at: webhookDeliveries.attemptedAt,
      next_attempt_at: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.jobId, jobId))
    .orderBy(asc(webhookDeliveries.attempt))
    .all();
}

/** Whether this attempt of the event already ran: the queue may deliver its message twice. */
export async function deliveryAttempted(db: D1Database, messageId: string, attempt: number): Promise<boolean> {
  const row = await orm(db)
    .select({ attempt: webhookDeliveries.attempt })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.messageId, messageId), eq(webhookDeliveries.attempt, attempt)))
    .get();
  return row !== undefined;
}

/** Records an attempt; a second record of the same (message, attempt) is ignored. */
export async function recordDelivery(db: D1Database, delivery: typeof webhookDeliveries.$inferInsert): Promise<void> {
  await orm(db)
    .insert(webhookDeliveries)
    .values(delivery)
    .onConflictDoNothing({ target: [webhookDeliveries.messageId, webhookDeliveries.attempt] })
    .run();
}

/** Every attempt of every job, in attempt order, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function deliveryRows(db: D1Database) {
  return orm(db)
    .select({
      message_id: webhookDeliveries.messageId,
      job_id: webhookDeliveries.jobId,
      attempt: webhookDeliveries.attempt,
      outcome: webhookDeliveries.outcome,
      next_attempt_at: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .orderBy(asc(webhookDeliveries.attempt));
}
