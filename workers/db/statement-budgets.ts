// Statements each kind of request may send to the shared D1 database, held by
// shared-statements.test.ts. D1 runs one query at a time (about 1,000 a second), so every
// statement here is a share of one database's capacity that all accounts together spend.

export interface StatementBudget {
  reads: number;
  writes: number;
  /** Of those, statements on the key index (cross-account); the rest is account state (bench:capacity's shard model). */
  keyIndex: number;
}

export const sharedStatementBudgets = {
  "transform hit": { reads: 0, writes: 0, keyIndex: 0 },
  "transform miss (file)": { reads: 2, writes: 0, keyIndex: 0 },
  "transform miss (origin path)": { reads: 3, writes: 1, keyIndex: 0 },
  optimize: { reads: 0, writes: 2, keyIndex: 0 },
  "optimize with Idempotency-Key": { reads: 0, writes: 2, keyIndex: 0 },
  "batch of 10": { reads: 0, writes: 20, keyIndex: 0 },
  "pdf analyze": { reads: 0, writes: 0, keyIndex: 0 },
  "pdf compress": { reads: 0, writes: 2, keyIndex: 0 },
  "pdf compress async, its job and webhook": { reads: 3, writes: 11, keyIndex: 0 },
  "xlsx generate": { reads: 0, writes: 2, keyIndex: 0 },
  "file store": { reads: 0, writes: 2, keyIndex: 0 },
  "file list": { reads: 1, writes: 0, keyIndex: 0 },
  account: { reads: 3, writes: 0, keyIndex: 0 },
  usage: { reads: 0, writes: 0, keyIndex: 0 },
  "401": { reads: 1, writes: 0, keyIndex: 1 },
  "400": { reads: 0, writes: 0, keyIndex: 0 },
  "cron sweep": { reads: 3, writes: 2, keyIndex: 0 },
  /** The shards' charges and derivatives reach the shared reports in queue batches: 0.03 statements a miss. */
  "ledger feed, a batch of 100 transform misses": { reads: 0, writes: 3, keyIndex: 0 },
} satisfies Record<string, StatementBudget>;

export type RequestKind = keyof typeof sharedStatementBudgets;
