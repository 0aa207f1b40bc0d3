// What an account spent, read from each of its shards (./account-branches.ts) and added up: a
// branch's ledger holds the charges made there, so the account's usage is the sum of theirs.
import { everyBranch, type BranchEnv } from "./account-branches.ts";
import type { DailyOperationUsageRow, DailyUsageRow, UsageGrouping, UsageRow } from "./usage.ts";

type AnyUsageRow = UsageRow | DailyUsageRow | DailyOperationUsageRow;

const groupOf = (row: AnyUsageRow) => `${"day" in row ? row.day : ""} ${"operation" in row ? row.operation : ""}`;

/** The account's usage between two instants, grouped as `/v1/usage` asks, ordered by day and then operation. */
export async function accountUsage(env: BranchEnv, accountId: string, grouping: UsageGrouping, from: number, to: number): Promise<AnyUsageRow[]> {
  const answers = await Promise.all(everyBranch(env, accountId).map((shard) => shard.usage(accountId, grouping, from, to)));
  const groups = new Map<string, AnyUsageRow>();
  for (const row of answers.flat()) {
    const seen = groups.get(groupOf(row));
    groups.set(groupOf(row), seen ? { ...seen, count: seen.count + row.count, micros: seen.micros + row.micros } : { ...row });
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** What the account spent between two instants, by operation. */
export async function accountSpending(env: BranchEnv, accountId: string, from: number, to: number): Promise<UsageRow[]> {
  return (await accountUsage(env, accountId, "operation", from, to)).filter((row): row is UsageRow => !("day" in row));
}
