import { sql } from "drizzle-orm";
import { jobOperations } from "../../contracts/operations.ts";
import { chargeables } from "../../contracts/pricing.ts";
import { MONEY_MOVEMENTS } from "../billing/ledger-operation.ts";
import type { Scope } from "../auth/scopes.ts";
import type { FormatClass } from "../../contracts/transform/negotiate.ts";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are integer epoch milliseconds; money is integer micro-dollars.

/** f_auto's negotiated class as the derivative tables spell it: "" for none (workers/derivatives/derivative-identity.ts says why). */
export type StoredFormatClass = FormatClass | "";

// An account's money lives in its shard (workers/shards/account-shard.ts). balance_micros here is
// the shared report's copy: the balance the ledger feed last carried (ledger_fed_seq is the shard
// ledger row it was taken after), or, for an account whose shard has not started yet, the balance
// the ledger trigger kept before the move (migrations/0013_money_in_shards.sql dropped it).
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "pro"] }).notNull(),
    balanceMicros: integer("balance_micros").notNull().default(0),
    ledgerFedSeq: integer("ledger_fed_seq").notNull().default(0),
    /** How long results are kept before the expiry sweep deletes them. */
    retentionHours: integer("retention_hours").notNull().default(24),
    /** Account-level webhook endpoint, used when a job names none of its own. */
    webhookUrl: text("webhook_url"),
    /** AES-GCM sealed under SIGNING_SECRET: it must be recoverable to sign deliveries. */
    webhookSecretSealed: text("webhook_secret_sealed"),
    /** URL transforms must carry a valid `s_` signature (workers/transform/signing.ts). */
    requireSignedTransforms: integer("require_signed_transforms", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [check("balance_non_negative", sql`${t.balanceMicros} >= 0`)],
);

// The report's copy of what each branch of an account's shard holds (workers/billing/account-branches.ts):
// an allotment's rest, fed like the first shard's balance above. The account's balance is the sum.
export const accountBranchBalances = sqliteTable(
  "account_branch_balances",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    branch: integer("branch").notNull(),
    balanceMicros: integer("balance_micros").notNull(),
    ledgerFedSeq: integer("ledger_fed_seq").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.branch] })],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name"),
    secretHash: text("secret_hash").notNull(),
    displayPrefix: text("display_prefix").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<Scope[]>(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
    /** Signs URL-transform paths; sealed under SIGNING_SECRET since it must be recoverable. */
    signingSecretSealed: text("signing_secret_sealed"),
  },
  (t) => [uniqueIndex("api_keys_secret_hash").on(t.secretHash), index("api_keys_account").on(t.accountId)],
);

// The shared report of every account's charges, fed from the shards in queue batches
// (workers/billing/ledger-feed.ts); before the move it was the ledger itself, and a shard imports
// its account's rows from it once. The unique (account, charge key) index makes a redelivered
// feed message a no-op.
export const ledger = sqliteTable(
  "ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    chargeKey: text("charge_key").notNull(),
    operation: text("operation", { enum: [...chargeables, ...MONEY_MOVEMENTS] }).notNull(),
    amountMicros: integer("amount_micros").notNull(),
    units: integer("units").notNull().default(1),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_charge_key").on(t.accountId, t.chargeKey),
    index("ledger_account_time").on(t.accountId, t.createdAt),
  ],
);

// Top-ups the operator granted (npm run admin) that the account's shard has not applied yet: the
// shard applies them under their charge key (once) when it starts, when a charge or a balance
// check falls short, and when the account is read, then deletes them here.
export const pendingTopUps = sqliteTable(
  "pending_top_ups",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    reference: text("reference").notNull(),
    micros: integer("micros").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.reference] }), check("top_up_positive", sql`${t.micros} > 0`)],
);

export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    accountId: text("account_id").notNull(),
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
  (t) => [
    primaryKey({ columns: [t.accountId, t.keyId, t.idempotencyKey] }),
    index("idempotency_expiry").on(t.expiresAt),
  ],
);


// Every stored object (a source, an upload, a result) has one row in its account's shard
// (workers/files/shard-files.ts); this table is the report of them all the shards feed
// (workers/files/d1-files.ts), for the expiry sweep, the storage meter and the books. A null
// expires_at is a durable file: kept until it is deleted, and metered as storage.
/** A file's columns, as the shared database's report and each account's shard (workers/shards/shard-schema.ts) both keep them. */
export const fileColumns = () => ({
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["source", "result"] }).notNull(),
  status: text("status", { enum: ["pending", "ready", "deleted"] }).notNull(),
  r2Key: text("r2_key").notNull(),
  filename: text("filename"),
  contentType: text("content_type").notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256"),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at"),
  deletedAt: integer("deleted_at"),
  /** Why a deleted file went, so its 410 can say so (a source used by a call names keep_source). */
  deletedReason: text("deleted_reason", { enum: ["deleted", "expired", "used_as_source"] }),
});

export const files = sqliteTable(
  "files",
  {
    ...fileColumns(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /** The shard's change this row reflects (0: written before the account had a shard); an older one arriving late is ignored. */
    fedSeq: integer("fed_seq").notNull().default(0),
  },
  (t) => [index("files_account").on(t.accountId, t.createdAt), index("files_expiry").on(t.status, t.expiresAt)],
);

// An async job and its webhook's attempts live in its account's shard (workers/jobs/shard-jobs.ts);
// these tables are the report of them all the shards feed (workers/jobs/d1-jobs.ts), for the books.
// A row written before its account had a shard (fed_seq 0) is what the shard imports once.
/** A job's columns, as the shared database's report and each account's shard (workers/shards/shard-schema.ts) both keep them. */
export const jobColumns = () => ({
  id: text("id").primaryKey(),
  keyId: text("key_id").notNull(),
  operation: text("operation", { enum: jobOperations }).notNull(),
  status: text("status", { enum: ["queued", "running", "succeeded", "failed", "cancelled"] }).notNull(),
  /** The validated request with its sources already stored as files: the queue carries only the id. Each JSON column holds an object, so that a job's row can be its shard's reply (a reply of `unknown` has no type). */
  request: text("request", { mode: "json" }).$type<object>().notNull(),
  result: text("result", { mode: "json" }).$type<object>(),
  error: text("error", { mode: "json" }).$type<object>(),
  /** What a succeeded job charged and which files it delivered, read from its result (workers/jobs/job-delivered.ts): the report carries this, not the result. */
  delivered: text("delivered", { mode: "json" }).$type<object>(),
  /** Units of work finished of `progressTotal` (workers/jobs/job-runner.ts); null until a runner reports. */
  progressDone: integer("progress_done"),
  progressTotal: integer("progress_total"),
  attempts: integer("attempts").notNull().default(0),
  /** A running job whose lease has passed was abandoned by a crashed consumer and may run again. */
  leaseUntil: integer("lease_until"),
  webhookUrl: text("webhook_url"),
  webhookSecretSealed: text("webhook_secret_sealed"),
  createdAt: integer("created_at").notNull(),
  startedAt: integer("started_at"),
  finishedAt: integer("finished_at"),
});

export const jobs = sqliteTable(
  "jobs",
  {
    ...jobColumns(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /** The shard's change this row reflects (0: written before the account had a shard); an older one arriving late is ignored. */
    fedSeq: integer("fed_seq").notNull().default(0),
  },
  (t) => [index("jobs_account").on(t.accountId, t.createdAt), index("jobs_status").on(t.status)],
);

/** An attempt's columns, as the report and each account's shard keep them. */
export const webhookDeliveryColumns = () => ({
  /** The Standard Webhooks `webhook-id`, the same across every attempt of one event. */
  messageId: text("message_id").notNull(),
  jobId: text("job_id").notNull(),
  attempt: integer("attempt").notNull(),
  url: text("url").notNull(),
  outcome: text("outcome", { enum: ["delivered", "failed", "disabled"] }).notNull(),
  responseStatus: integer("response_status"),
  error: text("error"),
  attemptedAt: integer("attempted_at").notNull(),
  nextAttemptAt: integer("next_attempt_at"),
});

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ...webhookDeliveryColumns(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id),
  },
  (t) => [uniqueIndex("webhook_delivery_attempt").on(t.messageId, t.attempt), index("webhook_deliveries_job").on(t.jobId)],
);

// URL-transform derivatives kept in R2: the tier between the edge cache and computing again.
// The report of every account's derivatives, fed by the shards (workers/derivatives/d1-derivatives.ts).
// One row per (account, file, canonical transform, format class); `format_class` is "" unless
// the transform is f_auto (workers/derivatives/derivative-identity.ts), so the unique index also
// caps races to one row.
// `overlay_file_id` is the file an `l_` overlay drew over it, so deleting or purging that file
// finds every derivative that shows it (null without an overlay).
/** A derivative's columns, as this report and each account's shard (workers/shards/shard-schema.ts) keep them. */
export const derivativeColumns = () => ({
  fileId: text("file_id").notNull(),
  canonical: text("canonical").notNull(),
  formatClass: text("format_class").$type<StoredFormatClass>().notNull(),
  r2Key: text("r2_key").notNull(),
  etag: text("etag").notNull(),
  bytes: integer("bytes").notNull(),
  contentType: text("content_type").notNull(),
  createdAt: integer("created_at").notNull(),
  overlayFileId: text("overlay_file_id"),
});

export const derivatives = sqliteTable(
  "derivatives",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    ...derivativeColumns(),
    /** The shard's change this row reflects (0: written before the account had a shard); an older one arriving late is ignored. */
    fedSeq: integer("fed_seq").notNull().default(0),
    /** When the shard dropped it: kept a day, so a late copy of an older change cannot bring it back. */
    droppedAt: integer("dropped_at"),
  },
  (t) => [uniqueIndex("derivatives_identity").on(t.accountId, t.fileId, t.canonical, t.formatClass), index("derivatives_overlay").on(t.overlayFileId)],
);


// Remote origins: where an account's own images live (an http(s) base URL, or a private
// S3-compatible bucket whose secret is sealed under SIGNING_SECRET). The name is what transform
// URLs carry, so it is unique within the account. Each account's file shard keeps its origins
// (workers/origins/shard-origins.ts); this table holds those registered before it had one, which
// the shard imports once.
/** An origin's columns, as the shared database held them and each account's file shard keeps them. */
export const originColumns = () => ({
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  kind: text("kind", { enum: ["http", "s3"] }).notNull(),
  /** Paths are appended to this; for S3 it is `{endpoint}/{bucket}/` (path-style). */
  baseUrl: text("base_url").notNull(),
  s3Region: text("s3_region"),
  s3AccessKeyId: text("s3_access_key_id"),
  s3SecretSealed: text("s3_secret_sealed"),
  createdAt: integer("created_at").notNull(),
});

export const origins = sqliteTable(
  "origins",
  {
    ...originColumns(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
  },
  (t) => [uniqueIndex("origins_account_name").on(t.accountId, t.name)],
);

// An origin path's original as this service last saw it: `ready` with its bytes in R2 under its
// version (a digest of those bytes) and the validators to revalidate with, `missing` (the origin
// answered 404/410) until `fresh_until`, or `dropped` by a purge. Derivatives of a version are
// keyed by the version's source id (workers/origins/origin-source-id.ts), so a new version makes
// new ones.
/** An origin path's columns, as the shared database's report and each account's file shard keep them. */
export const originObjectColumns = () => ({
  originId: text("origin_id").notNull(),
  path: text("path").notNull(),
  status: text("status", { enum: ["ready", "missing", "dropped"] }).notNull(),
  version: text("version"),
  r2Key: text("r2_key"),
  sizeBytes: integer("size_bytes"),
  contentType: text("content_type"),
  upstreamEtag: text("upstream_etag"),
  upstreamLastModified: text("upstream_last_modified"),
  /** Seconds the origin's headers granted (clamped), reused when a 304 grants none. */
  lifetimeSeconds: integer("lifetime_seconds").notNull(),
  freshUntil: integer("fresh_until").notNull(),
  fetchedAt: integer("fetched_at").notNull(),
});

// The report of every account's origin paths, which the file shards feed (workers/origins/d1-origin-objects.ts)
// and the books read; a dropped path keeps its row, so a late copy of an older change cannot bring it back.
export const originObjects = sqliteTable(
  "origin_objects",
  {
    ...originObjectColumns(),
    accountId: text("account_id").notNull(),
    /** The shard's change this row reflects (0: written before the account had a file shard). */
    fedSeq: integer("fed_seq").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.originId, t.path] })],
);

// One row per account and UTC day with durable bytes: the first sweep of the day meters them and
// prices the day; `charged_at` stays null while the balance cannot cover it (the day is owed, and
// new durable files are refused). The ledger's charge key (storage:<day>) bills it once.
export const storageCharges = sqliteTable(
  "storage_charges",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    day: text("day").notNull(),
    durableBytes: integer("durable_bytes").notNull(),
    amountMicros: integer("amount_micros").notNull(),
    createdAt: integer("created_at").notNull(),
    chargedAt: integer("charged_at"),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] }), index("storage_charges_owed").on(t.chargedAt)],
);

// Named transforms (`t_<name>` in a transform URL): the transform is kept in its canonical form
// (contracts/transform/preset.ts), so a hit expands it without reading anything else.
export const presets = sqliteTable(
  "presets",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    transform: text("transform").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.name] })],
);

// The derivatives computed through a preset, so changing or deleting it can purge them: the
// derivative's identity (as in `derivatives`) and the edge-cache URL it was put under, which for an
// origin path names the path the derivative's row does not hold.
export const presetDerivatives = sqliteTable(
  "preset_derivatives",
  {
    accountId: text("account_id").notNull(),
    presetName: text("preset_name").notNull(),
    fileId: text("file_id").notNull(),
    canonical: text("canonical").notNull(),
    formatClass: text("format_class").$type<StoredFormatClass>().notNull(),
    cacheUrl: text("cache_url").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.presetName, t.fileId, t.canonical, t.formatClass] })],
);

// Derivatives dropped while their source lives on (a purge of files, a preset changed or deleted):
// the ledger keeps their charge, and recomputing the same identity is never charged again, so the
// books (scripts/soak/reconcile.ts) read here that the output went on purpose, not lost.
export const purgedDerivatives = sqliteTable(
  "purged_derivatives",
  {
    accountId: text("account_id").notNull(),
    fileId: text("file_id").notNull(),
    canonical: text("canonical").notNull(),
    formatClass: text("format_class").$type<StoredFormatClass>().notNull(),
    purgedAt: integer("purged_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.fileId, t.canonical, t.formatClass] })],
);
