import type { z } from "@hono/zod-openapi";
import type { JobOperation } from "../../contracts/operations.ts";
import type { Bindings } from "../env.ts";
import type { OperationModules } from "../operations/operation-list.ts";
import type { JobProgress } from "./job-progress.ts";
import type { JobRecord } from "./job-store.ts";

export type { JobProgress };

/** What a succeeded job of `Operation` shows as its result: its operation's result, the body its synchronous route answers. */
export type JobResult<Operation extends JobOperation> = z.output<OperationModules[Operation]["resultSchema"]>;

/**
 * What an operation does when it runs as a job: the same work as its synchronous route, returning
 * the same response body. It charges with the job's charge key, so a rerun never charges twice.
 */
export type JobRunner<Operation extends JobOperation> = (env: Bindings, job: JobRecord, progress: JobProgress) => Promise<JobResult<Operation>>;

/** One runner per job operation, returning that operation's result: anything else does not compile. */
export type JobRunners = { [Operation in JobOperation]: JobRunner<Operation> };
