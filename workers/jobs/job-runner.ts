import type { JobOperation } from "../../contracts/operations.ts";
import type { Bindings } from "../env.ts";
import { setProgress, type JobRecord } from "./job-store.ts";
import type { JobView } from "./job-view.ts";

/**
 * How a runner reports its progress: `start` names how many units the job has (items of a batch,
 * stages otherwise), `advance` marks one more finished. The job's record shows it while running.
 */
export interface JobProgress {
  start(total: number): Promise<void>;
  advance(): Promise<void>;
}

/** What a succeeded job of `Operation` shows as its result: the body its synchronous route answers. */
export type JobResult<Operation extends JobOperation> = NonNullable<Extract<JobView, { operation: Operation }>["result"]>;

/**
 * What an operation does when it runs as a job: the same work as its synchronous route, returning
 * the same response body. It charges with the job's charge key, so a rerun never charges twice.
 */
export type JobRunner<Operation extends JobOperation> = (env: Bindings, job: JobRecord, progress: JobProgress) => Promise<JobResult<Operation>>;

/** One runner per job operation, returning that operation's result: anything else does not compile. */
export type JobRunners = { [Operation in JobOperation]: JobRunner<Operation> };

/** Progress written to the job's row; concurrent items may finish in any order, the count only grows. */
export function jobProgress(db: D1Database, jobId: string): JobProgress {
  let done = 0;
  let total = 0;
  return {
    async start(units) {
      done = 0;
      total = units;
      await setProgress(db, jobId, done, total);
    },
    async advance() {
      done = Math.min(total, done + 1);
      await setProgress(db, jobId, done, total);
    },
  };
}
