// Every statement on the shared database's `webhook_deliveries`: the report of every attempt of
// every job's end event, which the account shards keep (./shard-deliveries.ts) and feed here with
// their job (workers/billing/ledger-feed.ts). A shard reads its account's attempts from it once;
// the books (scripts/soak/reconcile.ts) read it. An attempt never changes once recorded, so a copy
// delivered again is ignored.
import { and, asc, eq, getTableColumns, gt, sql } from "drizzle-orm";
import { readInPages } from "../db/import-pages.ts";
import { inChunks } from "../db/in-chunks.ts";
import { orm } from "../db/orm.ts";
import { jobs, webhookDeliveries } from "../db/schema.ts";
import type { ShardDeliveryRow } from "./shard-deliveries.ts";

const { id: _id, ...shardColumns } = getTableColumns(webhookDeliveries);

/** The attempts of the account's jobs recorded before it had a shard, read page by page. */
export function deliveriesBeforeShard(db: D1Database, accountId: string): Promise<ShardDeliveryRow[]> {
  return readInPages((after, limit) =>
    orm(db)
      .select({ cursor: webhookDeliveries.id, ...shardColumns })
      .from(webhookDeliveries)
      .innerJoin(jobs, eq(jobs.id, webhookDeliveries.jobId))
      .where(and(eq(jobs.accountId, accountId), eq(jobs.fedSeq, 0), gt(webhookDeliveries.id, after)))
      .orderBy(asc(webhookDeliveries.id))
      .limit(limit)
      .all(),
  );
}

/** An attempt as a feed message carries it. */
export interface FedDelivery {
  message_id: string;
  job_id: string;
  attempt: number;
  url: string;
  outcome: string;
  response_status: number | null;
  error: string | null;
  attempted_at: number;
  next_attempt_at: number | null;
}

const DELIVERY_FIELDS = ["message_id", "job_id", "attempt", "url", "outcome", "response_status", "error", "attempted_at", "next_attempt_at"] as const;

const INSERT_FED_DELIVERIES = `INSERT INTO webhook_deliveries (${DELIVERY_FIELDS.join(", ")})
  SELECT ${DELIVERY_FIELDS.map((field) => `value ->> '${field}'`).join(", ")} FROM json_each(?1) WHERE true
  ON CONFLICT (message_id, attempt) DO NOTHING`;

// About 300 bytes an attempt.
const DELIVERIES_PER_STATEMENT = 3_000;

/** The statements that add the fed attempts to the report; they follow their jobs' in the feed's batch (an attempt names its job). */
export function fedDeliveryStatements(db: D1Database, fed: FedDelivery[]): D1PreparedStatement[] {
  return inChunks(fed, DELIVERIES_PER_STATEMENT).map((chunk) => db.prepare(INSERT_FED_DELIVERIES).bind(JSON.stringify(chunk)));
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

/** How many attempts the report has: it moves with every fed attempt. */
export function fedDeliveryProgress(db: D1Database) {
  return orm(db).select({ n: sql<number>`COUNT(*)` }).from(webhookDeliveries);
}
