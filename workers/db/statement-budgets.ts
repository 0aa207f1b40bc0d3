// Statements each kind of request may send to the shared D1 database, and the calls it makes to its
// account's shard and file shard, held by shared-statements.test.ts. D1 runs one query at a time
// (about 1,000 a second), so every statement here is a share of one database's capacity that all
// accounts together spend; a shard is one thread too, but one per account.

export interface StatementBudget {
  reads: number;
  writes: number;
  /** Of those, statements on the key index: cross-account, so they stay in D1 whatever moves to the shards. */
  keyIndex: number;
  /** Calls to the account's shard (money, idempotency, derivatives, jobs) and to its file shard: each object takes about 1,000 a second. */
  shardCalls: { account: number; file: number };
}

export const sharedStatementBudgets = {
  "transform hit": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 0, file: 0 } },
  "transform miss (file)": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 1 } },
  "transform miss (origin path)": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 3 } },
  optimize: { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 2 } },
  "optimize with Idempotency-Key": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 3, file: 2 } },
  "batch of 10": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 10, file: 20 } },
  "pdf analyze": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 0 } },
  "pdf compress": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 2 } },
  /** The job and its webhook's attempts live in the account's shard: its creation, claim, two progress counts, end, and the attempt's lookup and record are calls there. */
  "pdf compress async, its job and webhook": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 9, file: 6 } },
  "xlsx generate": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 2 } },
  "file store": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 0, file: 2 } },
  "file list": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 0, file: 1 } },
  account: { reads: 2, writes: 0, keyIndex: 0, shardCalls: { account: 2, file: 1 } },
  usage: { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 1, file: 0 } },
  "401": { reads: 1, writes: 0, keyIndex: 1, shardCalls: { account: 0, file: 0 } },
  "400": { reads: 0, writes: 0, keyIndex: 0, shardCalls: { account: 0, file: 0 } },
  "cron sweep": { reads: 3, writes: 2, keyIndex: 0, shardCalls: { account: 0, file: 0 } },
  /** The shards' charges, derivatives, files and jobs reach the shared reports in queue batches: 0.06 statements a message. */
  "ledger feed, a batch of 100 messages": { reads: 0, writes: 6, keyIndex: 0, shardCalls: { account: 0, file: 0 } },
} satisfies Record<string, StatementBudget>;

export type RequestKind = keyof typeof sharedStatementBudgets;
