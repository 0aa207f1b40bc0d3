// How a job's outcome crosses a thread or process boundary: a result as plain data, a problem as
// its slug, detail, status and extensions (a ProblemError's class does not survive the crossing),
// anything else as its text, so the pool side rebuilds the same problem or fails as a bug.
import { z } from "@hono/zod-openapi";
import { ProblemError, type ProblemType } from "../../contracts/problems/catalogue.ts";

export type JobOutcome<Result> =
  | { ok: true; result: Result }
  | { ok: false; problem: { slug: ProblemType; detail: string; status: number; extensions: Record<string, unknown> } }
  | { ok: false; error: string };

export async function outcomeOf<Result>(work: () => Result | Promise<Result>): Promise<JobOutcome<Result>> {
  try {
    return { ok: true, result: await work() };
  } catch (error) {
    if (error instanceof ProblemError) {
      return { ok: false, problem: { slug: error.slug, detail: error.message, status: error.status, extensions: error.extensions } };
    }
    return { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/** The result, or the problem rethrown as a ProblemError; `what` names the job in any other failure. */
export function resultOf<Result>(outcome: JobOutcome<Result>, what: string): Result {
  if (outcome.ok) return outcome.result;
  if ("problem" in outcome) {
    throw new ProblemError(outcome.problem.slug, outcome.problem.detail, { status: outcome.problem.status, extensions: outcome.problem.extensions });
  }
  throw new Error(`${what} failed: ${outcome.error}`);
}

/**
 * A worker's reply `{ id, outcome }`. The outcome is built by our own worker module from the same
 * types; only its envelope is checked.
 */
export function outcomeReplySchema<Result>() {
  return z.object({
    id: z.number(),
    outcome: z.custom<JobOutcome<Result>>((value) => typeof value === "object" && value !== null),
  });
}
