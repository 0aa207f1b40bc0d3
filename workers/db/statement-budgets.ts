// Statements each kind of request may send to the shared D1 database, held by
// shared-statements.test.ts. D1 runs one query at a time (about 1,000 a second), so every
// statement here is a share of one database's capacity that all accounts together spend.

export interface StatementBudget {
  reads: number;
  writes: number;
}

export const sharedStatementBudgets = {
  "transform hit": { reads: 0, writes: 0 },
  "transform miss (file)": { reads: 6, writes: 2 },
  "transform miss (origin path)": { reads: 7, writes: 3 },
  optimize: { reads: 3, writes: 3 },
  "optimize with Idempotency-Key": { reads: 3, writes: 5 },
  "batch of 10": { reads: 12, writes: 30 },
  "pdf analyze": { reads: 1, writes: 1 },
  "pdf compress": { reads: 3, writes: 3 },
  "pdf compress async, its job and webhook": { reads: 7, writes: 13 },
  "xlsx generate": { reads: 3, writes: 3 },
  "file store": { reads: 2, writes: 2 },
  "file list": { reads: 2, writes: 0 },
  account: { reads: 6, writes: 0 },
  usage: { reads: 2, writes: 0 },
  "401": { reads: 1, writes: 0 },
  "400": { reads: 1, writes: 0 },
  "cron sweep": { reads: 3, writes: 1 },
} satisfies Record<string, StatementBudget>;

export type RequestKind = keyof typeof sharedStatementBudgets;
