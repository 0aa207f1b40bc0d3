// The ledger feed: how the shared database's reports follow the shards: the ledger and fed
// balances, the derivative index, the jobs with their webhook attempts, the file index and the
// origin paths. An account shard sends its new rows, the derivatives it kept or dropped and the
// jobs that changed, in messages of at most FEED_ROWS rows, FEED_DERIVATIVES derivatives and
// FEED_JOBS jobs (workers/shards/account-shard.ts, at its alarm, a moment after a change); a file
// shard sends the files it changed, FEED_FILES a message, and the origin paths, FEED_ORIGIN_OBJECTS
// a message (workers/shards/file-shard.ts). The queue consumer writes a whole batch of messages in
// one transaction of a few statements (./d1-ledger.ts, workers/derivatives/d1-derivatives.ts,
// workers/files/d1-files.ts, workers/origins/d1-origins.ts, workers/jobs/d1-jobs.ts,
// workers/webhooks/d1-deliveries.ts). Delivery is at least once and in no set order; the report's
// unique charge key and attempt key, the balance's sequence number and each derivative's, file's,
// path's and job's change number make a second or late delivery change nothing.
import { z } from "zod";
import { fedDerivativeStatements, type FedDerivative } from "../derivatives/d1-derivatives.ts";
import type { DerivativeChange } from "../derivatives/shard-derivatives.ts";
import { fedFileStatements, type FedFile } from "../files/d1-files.ts";
import { fileRowOf, type FileChange } from "../files/shard-files.ts";
import { fedJobStatements, type FedJob } from "../jobs/d1-jobs.ts";
import { jobDeliveredSchema } from "../jobs/job-delivered.ts";
import type { JobChange } from "../jobs/shard-jobs.ts";
import { fedDeliveryStatements, type FedDelivery } from "../webhooks/d1-deliveries.ts";
import type { ShardDeliveryRow } from "../webhooks/shard-deliveries.ts";
import { fedOriginObjectStatements, type FedOriginObject } from "../origins/d1-origins.ts";
import type { OriginObjectChange } from "../origins/shard-origins.ts";
import { fedLedgerStatements, type FedBalance, type FedRow } from "./d1-ledger.ts";
import type { ShardLedgerRow } from "./shard-ledger.ts";

export const LEDGER_FEED_QUEUE = "pixelpress-ledger";
/** How long a shard's new rows wait before they are fed, so a busy account's rows travel together in one message. */
export const FEED_DELAY_MS = 1_000;
/** Rows a message carries: about 150 bytes each, well under a queue message's 128 KB. */
export const FEED_ROWS = 400;
/** Derivatives a message carries: about 300 bytes each, so a full message stays near 120 KB. */
export const FEED_DERIVATIVES = 200;
/** Files a message carries: about 400 bytes each. */
export const FEED_FILES = 200;
/** Origin paths a message carries: up to about 4.5 KB each (a 1,024-character path and its R2 key). */
export const FEED_ORIGIN_OBJECTS = 25;
/** Jobs a message carries, each with its webhook's attempts (at most 8): a few KB each at most. */
export const FEED_JOBS = 20;

/** A job changed since the report last heard, with every attempt of its webhook. */
export interface JobChangeWithDeliveries extends JobChange {
  deliveries: ShardDeliveryRow[];
}

const fedDerivativeSchema = z.object({
  file_id: z.string(),
  canonical: z.string(),
  format_class: z.string(),
  seq: z.number().int().positive(),
  row: z
    .object({ r2_key: z.string(), etag: z.string(), bytes: z.number().int(), content_type: z.string(), created_at: z.number().int(), overlay_file_id: z.string().nullable() })
    .nullable(),
});

const fedFileSchema = z.object({
  seq: z.number().int().positive(),
  row: z.object({
    id: z.string(),
    kind: z.enum(["source", "result"]),
    status: z.enum(["pending", "ready", "deleted"]),
    r2_key: z.string(),
    filename: z.string().nullable(),
    content_type: z.string(),
    size_bytes: z.number().int().nonnegative(),
    sha256: z.string().nullable(),
    created_at: z.number().int(),
    expires_at: z.number().int().nullable(),
    deleted_at: z.number().int().nullable(),
    deleted_reason: z.enum(["deleted", "expired", "used_as_source"]).nullable(),
  }),
});

const fedOriginObjectSchema = z.object({
  seq: z.number().int().positive(),
  row: z.object({
    origin_id: z.string(),
    path: z.string(),
    status: z.enum(["ready", "missing", "dropped"]),
    version: z.string().nullable(),
    r2_key: z.string().nullable(),
    size_bytes: z.number().int().nonnegative().nullable(),
    content_type: z.string().nullable(),
    upstream_etag: z.string().nullable(),
    upstream_last_modified: z.string().nullable(),
    lifetime_seconds: z.number().int(),
    fresh_until: z.number().int(),
    fetched_at: z.number().int(),
  }),
});

const fedJobSchema = z.object({
  seq: z.number().int().positive(),
  row: z.object({
    id: z.string(),
    key_id: z.string(),
    operation: z.string(),
    status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
    error: z.unknown(),
    delivered: jobDeliveredSchema.nullable(),
    attempts: z.number().int().nonnegative(),
    webhook_url: z.string().nullable(),
    created_at: z.number().int(),
    started_at: z.number().int().nullable(),
    finished_at: z.number().int().nullable(),
  }),
  deliveries: z.array(
    z.object({
      message_id: z.string(),
      attempt: z.number().int().positive(),
      url: z.string(),
      outcome: z.enum(["delivered", "failed", "disabled"]),
      response_status: z.number().int().nullable(),
      error: z.string().nullable(),
      attempted_at: z.number().int(),
      next_attempt_at: z.number().int().nullable(),
    }),
  ),
});

const ledgerFeedMessageSchema = z.object({
  account_id: z.string(),
  rows: z.array(
    z.object({
      charge_key: z.string(),
      operation: z.string(),
      amount_micros: z.number().int(),
      units: z.number().int(),
      created_at: z.number().int(),
    }),
  ),
  /** The balance after the message's last row, when that row was the ledger's newest, and which of the account's shards holds it. */
  balance: z.object({ balance_micros: z.number().int().nonnegative(), seq: z.number().int().positive(), branch: z.number().int().nonnegative().default(0) }).nullable(),
  /** Each derivative kept or dropped since the last message, as it is now (null: dropped). */
  derivatives: z.array(fedDerivativeSchema).default([]),
  /** Each file changed since the last message, as it is now. */
  files: z.array(fedFileSchema).default([]),
  /** Each origin path changed since the last message, as it is now. */
  origin_objects: z.array(fedOriginObjectSchema).default([]),
  /** Each job changed since the last message, as it is now, with its webhook's attempts. */
  jobs: z.array(fedJobSchema).default([]),
});

export type LedgerFeedMessage = z.input<typeof ledgerFeedMessageSchema>;

export function ledgerFeedMessage(
  accountId: string,
  rows: ShardLedgerRow[],
  balance: { micros: number; seq: number; branch: number } | null,
  derivatives: DerivativeChange[] = [],
  jobs: JobChangeWithDeliveries[] = [],
): LedgerFeedMessage {
  return {
    account_id: accountId,
    rows: rows.map((row) => ({ charge_key: row.chargeKey, operation: row.operation, amount_micros: row.amountMicros, units: row.units, created_at: row.createdAt })),
    balance: balance && { balance_micros: balance.micros, seq: balance.seq, branch: balance.branch },
    derivatives: derivatives.map(({ fileId, canonical, formatClass, seq, row }) => ({
      file_id: fileId,
      canonical,
      format_class: formatClass,
      seq,
      row: row && { r2_key: row.r2Key, etag: row.etag, bytes: row.bytes, content_type: row.contentType, created_at: row.createdAt, overlay_file_id: row.overlayFileId },
    })),
    jobs: jobs.map(({ seq, row, deliveries }) => ({
      seq,
      row: {
        id: row.id,
        key_id: row.keyId,
        operation: row.operation,
        status: row.status,
        error: row.error,
        delivered: jobDeliveredSchema.nullable().parse(row.delivered),
        attempts: row.attempts,
        webhook_url: row.webhookUrl,
        created_at: row.createdAt,
        started_at: row.startedAt,
        finished_at: row.finishedAt,
      },
      deliveries: deliveries.map((d) => ({
        message_id: d.messageId,
        attempt: d.attempt,
        url: d.url,
        outcome: d.outcome,
        response_status: d.responseStatus,
        error: d.error,
        attempted_at: d.attemptedAt,
        next_attempt_at: d.nextAttemptAt,
      })),
    })),
  };
}

/** A file shard's message: the files it changed, each as it is now. */
export function fileFeedMessage(accountId: string, files: FileChange[]): LedgerFeedMessage {
  return {
    account_id: accountId,
    rows: [],
    balance: null,
    files: files.map(({ seq, row }) => ({ seq, row: fileRowOf(row) })),
  };
}

/** A file shard's message: the origin paths it changed, each as it is now. */
export function originObjectFeedMessage(accountId: string, paths: OriginObjectChange[]): LedgerFeedMessage {
  return {
    account_id: accountId,
    rows: [],
    balance: null,
    origin_objects: paths.map(({ seq, row }) => ({
      seq,
      row: {
        origin_id: row.originId,
        path: row.path,
        status: row.status,
        version: row.version,
        r2_key: row.r2Key,
        size_bytes: row.sizeBytes,
        content_type: row.contentType,
        upstream_etag: row.upstreamEtag,
        upstream_last_modified: row.upstreamLastModified,
        lifetime_seconds: row.lifetimeSeconds,
        fresh_until: row.freshUntil,
        fetched_at: row.fetchedAt,
      },
    })),
  };
}

/** Writes a batch of feed messages to the shared database; a message that does not parse is dropped, not retried forever. */
export async function consumeLedgerFeed(batch: MessageBatch<unknown>, db: D1Database): Promise<void> {
  const rows: FedRow[] = [];
  const derivatives: FedDerivative[] = [];
  const files: FedFile[] = [];
  const originObjects: FedOriginObject[] = [];
  const jobs: FedJob[] = [];
  const deliveries: FedDelivery[] = [];
  const newest = new Map<string, FedBalance>();
  for (const message of batch.messages) {
    const parsed = ledgerFeedMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error(`ledger feed: dropped a message that is not a feed message: ${parsed.error.message}`);
      continue;
    }
    const { account_id, balance } = parsed.data;
    for (const row of parsed.data.rows) rows.push({ account_id, ...row });
    for (const derivative of parsed.data.derivatives) derivatives.push({ account_id, ...derivative });
    for (const file of parsed.data.files) files.push({ account_id, ...file });
    for (const object of parsed.data.origin_objects) originObjects.push({ account_id, ...object });
    for (const { deliveries: attempts, ...job } of parsed.data.jobs) {
      jobs.push({ account_id, ...job });
      for (const attempt of attempts) deliveries.push({ job_id: job.row.id, ...attempt });
    }
    const held = balance && `${account_id} ${balance.branch}`;
    if (balance && held && balance.seq > (newest.get(held)?.seq ?? 0)) newest.set(held, { account_id, ...balance });
  }
  const statements = [
    ...fedLedgerStatements(db, rows, [...newest.values()]),
    ...fedDerivativeStatements(db, derivatives, Date.now()),
    ...fedFileStatements(db, files),
    ...fedOriginObjectStatements(db, originObjects),
    // An attempt names its job: the jobs' statement comes first.
    ...fedJobStatements(db, jobs),
    ...fedDeliveryStatements(db, deliveries),
  ];
  if (statements.length > 0) await db.batch(statements);
  batch.ackAll();
}
