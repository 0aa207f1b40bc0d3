import { integer, primaryKey, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { derivativeColumns, fileColumns, jobColumns, originColumns, originObjectColumns, webhookDeliveryColumns, type StoredFormatClass } from "../db/schema.ts";
import type { LedgerOperation } from "../billing/ledger-operation.ts";

// The tables of one account's shard (workers/shards/account-shard.ts): its own SQLite database,
// so nothing here carries an account id. Their DDL is shard-migrations.ts; the store tests
// exercise every column through these definitions, so the two cannot drift unnoticed.

/** What the shard has done once: the imports of its account's records from the shared database. */
export const shardFacts = sqliteTable("shard_facts", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

export const shardIdempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    keyId: text("key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] })],
);

/** The account's charges and top-ups; `seq` orders them, `fed` marks what the shared report has. */
export const shardLedger = sqliteTable("ledger", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  chargeKey: text("charge_key").notNull().unique(),
  operation: text("operation").$type<LedgerOperation>().notNull(),
  amountMicros: integer("amount_micros").notNull(),
  units: integer("units").notNull(),
  createdAt: integer("created_at").notNull(),
  fed: integer("fed", { mode: "boolean" }).notNull().default(false),
});

/** One row: the balance, moved only by the ledger's trigger. */
export const shardBalance = sqliteTable("balance", {
  one: integer("one").primaryKey(),
  micros: integer("micros").notNull(),
});

/** The account's derivatives: the shared database's `derivatives` without the account column. */
export const shardDerivatives = sqliteTable(
  "derivatives",
  derivativeColumns(),
  (t) => [primaryKey({ columns: [t.fileId, t.canonical, t.formatClass] })],
);

/** Derivatives kept or dropped since the shared report last heard, each under its newest change's `seq`. */
export const shardDerivativeChanges = sqliteTable(
  "derivative_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    fileId: text("file_id").notNull(),
    canonical: text("canonical").notNull(),
    formatClass: text("format_class").$type<StoredFormatClass>().notNull(),
  },
  (t) => [unique().on(t.fileId, t.canonical, t.formatClass)],
);

/** Sources deleted lately, whose derivatives are refused at their keep. */
export const shardGoneSources = sqliteTable("gone_sources", {
  fileId: text("file_id").primaryKey(),
  goneAt: integer("gone_at").notNull(),
});

/** The account's files: the shared database's `files` without the account column. */
export const shardFiles = sqliteTable("files", fileColumns());

/** Files changed since the shared report last heard, each under its newest change's `seq`. */
export const shardFileChanges = sqliteTable("file_changes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  fileId: text("file_id").notNull().unique(),
});

/** The account's remote origins: the shared database's `origins` without the account column. */
export const shardOrigins = sqliteTable("origins", originColumns(), (t) => [unique().on(t.name)]);

/** What the account's origins' paths held when last fetched; a dropped path keeps its row for the report. */
export const shardOriginObjects = sqliteTable("origin_objects", originObjectColumns(), (t) => [primaryKey({ columns: [t.originId, t.path] })]);

/** Origin paths changed since the shared report last heard, each under its newest change's `seq`. */
export const shardOriginObjectChanges = sqliteTable(
  "origin_object_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    originId: text("origin_id").notNull(),
    path: text("path").notNull(),
  },
  (t) => [unique().on(t.originId, t.path)],
);

/** The account's async jobs: the shared database's `jobs` without the account column. */
export const shardJobs = sqliteTable("jobs", jobColumns());

/** Each attempt of a job's webhook, one row per (job, attempt). */
export const shardWebhookDeliveries = sqliteTable("webhook_deliveries", webhookDeliveryColumns(), (t) => [primaryKey({ columns: [t.jobId, t.attempt] })]);

/** Jobs changed (or given a webhook attempt) since the shared report last heard, each under its newest change's `seq`. */
export const shardJobChanges = sqliteTable("job_changes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  jobId: text("job_id").notNull().unique(),
});
