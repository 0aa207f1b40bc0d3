// A shard's schema, one step a version, applied in order when a shard object starts: a shard
// that was created by an older deployment takes the steps it has not had, and every step runs
// once (its number is recorded in the same transaction as its statements).

/** What a shard has done once (its imports from the shared database), in every kind of shard. */
export const SHARD_FACTS_TABLE = "CREATE TABLE shard_facts (name TEXT PRIMARY KEY, value TEXT NOT NULL)";

/** An account shard's steps (./account-shard.ts). */
export const ACCOUNT_SHARD_STEPS: readonly string[][] = [
  [
    SHARD_FACTS_TABLE,
    `CREATE TABLE idempotency_records (
      key_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, fingerprint TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'done')),
      response_status INTEGER, response_headers TEXT, response_body TEXT,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (key_id, idempotency_key))`,
    "CREATE INDEX idempotency_expiry ON idempotency_records (expires_at)",
  ],
  // The account's money: every charge and top-up a row (a top-up is a negative amount), the
  // balance moved by the same statement that records the row, and the CHECK that refuses an
  // overdraw inside that statement. `fed` marks the rows the shared database's report has.
  [
    `CREATE TABLE ledger (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, charge_key TEXT NOT NULL UNIQUE, operation TEXT NOT NULL,
      amount_micros INTEGER NOT NULL, units INTEGER NOT NULL, created_at INTEGER NOT NULL,
      fed INTEGER NOT NULL DEFAULT 0)`,
    "CREATE INDEX ledger_time ON ledger (created_at)",
    "CREATE INDEX ledger_unfed ON ledger (seq) WHERE fed = 0",
    `CREATE TABLE balance (
      one INTEGER PRIMARY KEY CHECK (one = 1),
      micros INTEGER NOT NULL CONSTRAINT balance_non_negative CHECK (micros >= 0))`,
    "INSERT INTO balance (one, micros) VALUES (1, 0)",
    "CREATE TRIGGER ledger_moves_balance AFTER INSERT ON ledger BEGIN UPDATE balance SET micros = micros - NEW.amount_micros; END",
  ],
  // The account's derivative index: one row per (source, canonical transform, format class), as
  // the shared database's `derivatives` had them. `derivative_changes` names each derivative kept
  // or dropped since the shared report last heard (one row per derivative, its newest change's
  // `seq`), so the ledger feed carries each one's state as it is when sent.
  [
    `CREATE TABLE derivatives (
      file_id TEXT NOT NULL, canonical TEXT NOT NULL, format_class TEXT NOT NULL,
      r2_key TEXT NOT NULL, etag TEXT NOT NULL, bytes INTEGER NOT NULL, content_type TEXT NOT NULL,
      created_at INTEGER NOT NULL, overlay_file_id TEXT,
      PRIMARY KEY (file_id, canonical, format_class))`,
    "CREATE INDEX derivatives_bytes ON derivatives (file_id, etag)",
    "CREATE INDEX derivatives_overlay ON derivatives (overlay_file_id) WHERE overlay_file_id IS NOT NULL",
    `CREATE TABLE derivative_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, file_id TEXT NOT NULL, canonical TEXT NOT NULL, format_class TEXT NOT NULL,
      UNIQUE (file_id, canonical, format_class))`,
  ],
  // Files deleted lately (the file index is another object, ./file-shard.ts): a derivative of one
  // is refused at its keep, so a transform begun from an isolate's memory of the file before its
  // deletion is neither charged nor kept. Kept a day, far past any transform's deadline.
  ["CREATE TABLE gone_sources (file_id TEXT PRIMARY KEY, gone_at INTEGER NOT NULL)"],
  // The account's async jobs and each attempt of their webhooks, as the shared database's `jobs`
  // and `webhook_deliveries` had them. `job_changes` names each job changed (or given an attempt)
  // since the shared report last heard, under its newest change's `seq`.
  [
    `CREATE TABLE jobs (
      id TEXT PRIMARY KEY, key_id TEXT NOT NULL, operation TEXT NOT NULL, status TEXT NOT NULL,
      request TEXT NOT NULL, result TEXT, error TEXT, delivered TEXT, progress_done INTEGER, progress_total INTEGER,
      attempts INTEGER NOT NULL DEFAULT 0, lease_until INTEGER, webhook_url TEXT, webhook_secret_sealed TEXT,
      created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER)`,
    `CREATE TABLE webhook_deliveries (
      job_id TEXT NOT NULL, attempt INTEGER NOT NULL, message_id TEXT NOT NULL, url TEXT NOT NULL,
      outcome TEXT NOT NULL, response_status INTEGER, error TEXT, attempted_at INTEGER NOT NULL, next_attempt_at INTEGER,
      PRIMARY KEY (job_id, attempt))`,
    "CREATE TABLE job_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, job_id TEXT NOT NULL UNIQUE)",
  ],
];

/**
 * A file shard's steps (./file-shard.ts): the account's file index, one row per stored object as
 * the shared database's `files` had them, and `file_changes`, each file changed since the shared
 * report last heard under its newest change's `seq`.
 */
export const FILE_SHARD_STEPS: readonly string[][] = [
  [
    SHARD_FACTS_TABLE,
    `CREATE TABLE files (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL, r2_key TEXT NOT NULL, filename TEXT,
      content_type TEXT NOT NULL, size_bytes INTEGER NOT NULL, sha256 TEXT, created_at INTEGER NOT NULL,
      expires_at INTEGER, deleted_at INTEGER, deleted_reason TEXT)`,
    "CREATE INDEX files_listed ON files (created_at, id)",
    "CREATE INDEX files_expiry ON files (expires_at) WHERE status != 'deleted'",
    "CREATE TABLE file_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, file_id TEXT NOT NULL UNIQUE)",
  ],
  // The account's remote origins and what each path held when last fetched: a miss of an origin
  // path reads both in one call.
  [
    `CREATE TABLE origins (
      id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, base_url TEXT NOT NULL,
      s3_region TEXT, s3_access_key_id TEXT, s3_secret_sealed TEXT, created_at INTEGER NOT NULL)`,
    `CREATE TABLE origin_objects (
      origin_id TEXT NOT NULL, path TEXT NOT NULL, status TEXT NOT NULL, version TEXT, r2_key TEXT,
      size_bytes INTEGER, content_type TEXT, upstream_etag TEXT, upstream_last_modified TEXT,
      lifetime_seconds INTEGER NOT NULL, fresh_until INTEGER NOT NULL, fetched_at INTEGER NOT NULL,
      PRIMARY KEY (origin_id, path))`,
    `CREATE TABLE origin_object_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, origin_id TEXT NOT NULL, path TEXT NOT NULL, UNIQUE (origin_id, path))`,
  ],
];

/** Brings the shard's SQLite up to its last step; returns the version it had before. */
export function migrateShard(storage: DurableObjectStorage, steps: readonly string[][]): number {
  storage.sql.exec("CREATE TABLE IF NOT EXISTS shard_schema (version INTEGER NOT NULL)");
  const row = storage.sql.exec<{ version: number }>("SELECT MAX(version) AS version FROM shard_schema").one();
  const had = row.version ?? 0;
  for (let version = had + 1; version <= steps.length; version++) {
    storage.transactionSync(() => {
      for (const statement of steps[version - 1]!) storage.sql.exec(statement);
      storage.sql.exec("INSERT INTO shard_schema (version) VALUES (?)", version);
    });
  }
  return had;
}
