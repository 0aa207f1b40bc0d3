import type { AccountShards } from "../shards/shard-stub.ts";
import { setProgress } from "./job-store.ts";

/**
 * How a runner reports its progress: `start` names how many units the job has (items of a batch,
 * stages otherwise), `advance` marks one more finished. The job's record shows it while running.
 */
export interface JobProgress {
  start(total: number): Promise<void>;
  advance(): Promise<void>;
}

/** Progress written to the job's row in its shard; concurrent items may finish in any order, the count only grows. */
export function jobProgress(env: AccountShards, accountId: string, jobId: string): JobProgress {
  let done = 0;
  let total = 0;
  return {
    async start(units) {
      done = 0;
      total = units;
      await setProgress(env, accountId, jobId, done, total);
    },
    async advance() {
      done = Math.min(total, done + 1);
      await setProgress(env, accountId, jobId, done, total);
    },
  };
}
