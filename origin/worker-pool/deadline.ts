// The ticket of the call the current code works for (its account and deadline), carried through
// its awaits (AsyncLocalStorage), so work in the main process can stop between its steps: image
// pipelines check it before each step and search probe, and hand the time left to sharp's own
// timeout; the xlsx writer checks it between rows. A step handed to a worker pool from inside a
// call (a PDF page, an SVG) takes the call's ticket with it: the same account's turn, the same deadline.
import { AsyncLocalStorage } from "node:async_hooks";
import { processingTimeout, type JobTicket } from "./job-ticket.ts";

const current = new AsyncLocalStorage<JobTicket>();

export function runWithTicket<T>(ticket: JobTicket, work: () => Promise<T>): Promise<T> {
  return current.run(ticket, work);
}

/** The current call's ticket; outside a call, none (no account, no deadline). */
export function currentTicket(): JobTicket {
  return current.getStore() ?? {};
}

/** Throws processing_timeout once the current call's deadline has passed. */
export function checkDeadline(what: string): void {
  const deadlineAt = current.getStore()?.deadlineAt;
  if (deadlineAt !== undefined && Date.now() >= deadlineAt) throw processingTimeout(what);
}

/** When the current call must be answered (epoch ms), or undefined outside a call with a deadline. */
export function currentDeadline(): number | undefined {
  return current.getStore()?.deadlineAt;
}

/** Whole seconds left (at least 1) for sharp's `timeout`, or null outside a call with a deadline. */
export function secondsLeft(): number | null {
  const deadlineAt = current.getStore()?.deadlineAt;
  return deadlineAt === undefined ? null : Math.max(1, Math.ceil((deadlineAt - Date.now()) / 1000));
}
