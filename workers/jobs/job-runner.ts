import type { Bindings } from "../env.ts";
import type { JobOperation, JobRecord } from "./job-store.ts";

/**
 * What an operation does when it runs as a job: the same work as its synchronous route, returning
 * the same response body. It charges with the job's charge key, so a rerun never charges twice.
 */
export type JobRunner = (env: Bindings, job: JobRecord) => Promise<unknown>;

export type JobRunners = Partial<Record<JobOperation, JobRunner>>;

export function jobChargeKey(jobId: string): string {
  return `job:${jobId}`;
}
