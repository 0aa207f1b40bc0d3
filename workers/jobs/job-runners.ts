import { jobOperations } from "../../contracts/operations.ts";
import type { AnyOperation } from "../operations/operation.ts";
import { operationModules } from "../operations/operation-list.ts";
import type { JobRunners } from "./job-runner.ts";

/**
 * A job operation's runner: its stored request parsed with the operation's schema, then the
 * operation's job run. Each operation's own declaration checks its run against its result
 * (operation-list.ts), so one function can wrap them all.
 */
function runnerOf(job: NonNullable<AnyOperation["job"]>): JobRunners[keyof JobRunners] {
  return (env, record, progress) => job.run(env, { job: record, request: job.requestSchema.parse(record.request) }, progress);
}

/** Every job operation's runner, derived from the operation list; the type makes the map total. */
export const jobRunners = Object.fromEntries(jobOperations.map((operation) => [operation, runnerOf(operationModules[operation].job)])) as JobRunners;
