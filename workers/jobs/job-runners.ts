import { processingOperations } from "../operations/operation-list.ts";
import type { JobRunners } from "./job-runner.ts";

/**
 * Every job operation's runner: its stored request parsed with the operation's schema, then the
 * operation's job run (both inside the job side's erasure, operation.ts, where each operation's own
 * declaration checks its run against its result). The list has a job side exactly for the job
 * operations (operation-list.ts), so these are the runners of all of them and of nothing else.
 */
export const jobRunners = Object.fromEntries(processingOperations.flatMap(({ name, job }) => (job ? [[name, job.run]] : []))) as JobRunners;
