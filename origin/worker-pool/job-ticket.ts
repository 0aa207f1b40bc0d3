// What the origin's schedulers know of a call besides its work: whose it is and when it must end.
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export interface JobTicket {
  /** The account the edge named (ORIGIN_ACCOUNT_HEADER); calls without one share a turn. */
  account?: string;
  /** Epoch milliseconds by which the call must be answered. */
  deadlineAt?: number;
}

export const SHARED_ACCOUNT = "";

/** Work that passed its deadline: stopped, answered as a problem, never charged. */
export function processingTimeout(what: string): ProblemError {
  return new ProblemError("processing_timeout", `${what} ran past its deadline and was stopped. Not charged.`);
}

/** Work whose deadline passed before a worker was free: it never started. */
export function busyTimeout(): ProblemError {
  return new ProblemError("origin_unavailable", "Every worker stayed busy until this call's deadline; it never started. Not charged.", {
    headers: { "Retry-After": "5" },
  });
}
