// Every statement on the shared database's `jobs`: the report of every account's async jobs, which
// the account shards keep (./shard-jobs.ts) and feed here (workers/billing/ledger-feed.ts). A shard
// reads its account's rows from it once, when it is first used; a queue message enqueued before
// jobs moved (it names no account) finds its account here; the books (scripts/soak/reconcile.ts)
// read it. Each fed row carries the shard's change it reflects, so a copy of an older change
// delivered late changes nothing. A fed row keeps neither the request nor the result, which only
// the shard needs: it keeps what the result says was charged and delivered.
import { and, eq, getTableColumns, gte, sql } from "drizzle-orm";
import { rowsInPages } from "../db/import-pages.ts";
import { inChunks } from "../db/in-chunks.ts";
import { orm } from "../db/orm.ts";
import { jobs } from "../db/schema.ts";
import type { JobDelivered } from "./job-delivered.ts";
import type { ShardJobRow } from "./shard-jobs.ts";

// The report's columns a shard keeps too: all but the account and the feed's own.
const { accountId: _accountId, fedSeq: _fedSeq, ...shardColumns } = getTableColumns(jobs);

/** The account's jobs recorded before it had a shard, read page by page. */
export function jobsBeforeShard(db: D1Database, accountId: string): Promise<ShardJobRow[]> {
  return rowsInPages(db, jobs, shardColumns, and(eq(jobs.accountId, accountId), eq(jobs.fedSeq, 0)));
}

/** The account a job belongs to, for a queue message enqueued before messages named it; null for a job the report does not have (yet). */
export async function reportedJobAccount(db: D1Database, jobId: string): Promise<string | null> {
  const row = await orm(db).select({ account_id: jobs.accountId }).from(jobs).where(eq(jobs.id, jobId)).get();
  return row?.account_id ?? null;
}

/** A job's state as a feed message carries it, under the shard's change `seq`. */
export interface FedJob {
  account_id: string;
  seq: number;
  row: {
    id: string;
    key_id: string;
    operation: string;
    status: string;
    error: unknown;
    delivered: JobDelivered | null;
    attempts: number;
    webhook_url: string | null;
    created_at: number;
    started_at: number | null;
    finished_at: number | null;
  };
}

const JOB_FIELDS = ["key_id", "operation", "status", "error", "delivered", "attempts", "webhook_url", "created_at", "started_at", "finished_at"] as const;
const CHANGING_FIELDS = ["status", "error", "delivered", "attempts", "started_at", "finished_at"] as const;

// One statement for a whole batch: each job's state goes in as JSON, and replaces the report's row
// only when it reflects a newer change. `->>` reads a problem or a delivery as its JSON text.
const UPSERT_FED_JOBS = `INSERT INTO jobs (id, account_id, request, ${JOB_FIELDS.join(", ")}, fed_seq)
  SELECT value ->> '$.row.id', value ->> 'account_id', '{}', ${JOB_FIELDS.map((field) => `value ->> '$.row.${field}'`).join(", ")}, value ->> 'seq'
  FROM json_each(?1) WHERE true
  ON CONFLICT (id) DO UPDATE SET ${CHANGING_FIELDS.map((field) => `${field} = excluded.${field}`).join(", ")}, fed_seq = excluded.fed_seq
  WHERE excluded.fed_seq > jobs.fed_seq AND excluded.account_id = jobs.account_id`;

// At most a few KB a job (a batch's delivered files), well under D1's 2 MB for a bound value.
const JOBS_PER_STATEMENT = 200;

/** The statements that bring the report up to the fed states, for the feed's one batch (one transaction). */
export function fedJobStatements(db: D1Database, fed: FedJob[]): D1PreparedStatement[] {
  return inChunks(fed, JOBS_PER_STATEMENT).map((chunk) => db.prepare(UPSERT_FED_JOBS).bind(JSON.stringify(chunk)));
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
      delivered: jobs.delivered,
      fed_seq: jobs.fedSeq,
      error: jobs.error,
      webhook_url: jobs.webhookUrl,
      created_at: jobs.createdAt,
      finished_at: jobs.finishedAt,
    })
    .from(jobs)
    .where(gte(jobs.createdAt, since));
}

/** The report's job progress: the sum of its rows' change numbers, which moves with every fed change. */
export function fedJobProgress(db: D1Database) {
  return orm(db).select({ n: sql<number>`COALESCE(SUM(${jobs.fedSeq}), 0)` }).from(jobs);
}
