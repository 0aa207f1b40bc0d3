// The deadline of the call the current code works for, carried through its awaits
// (AsyncLocalStorage), so work in the main process can stop between its steps: image pipelines
// check it before each step and search probe, and hand the time left to sharp's own timeout;
// the xlsx writer checks it between rows.
import { AsyncLocalStorage } from "node:async_hooks";
import { processingTimeout } from "./job-ticket.ts";

const current = new AsyncLocalStorage<number>();

export function runWithDeadline<T>(deadlineAt: number | undefined, work: () => Promise<T>): Promise<T> {
  return deadlineAt === undefined ? work() : current.run(deadlineAt, work);
}

/** Throws processing_timeout once the current call's deadline has passed. */
export function checkDeadline(what: string): void {
  const deadlineAt = current.getStore();
  if (deadlineAt !== undefined && Date.now() >= deadlineAt) throw processingTimeout(what);
}

/** When the current call must be answered (epoch ms), or undefined outside a call with a deadline. */
export function currentDeadline(): number | undefined {
  return current.getStore();
}

/** Whole seconds left (at least 1) for sharp's `timeout`, or null outside a call with a deadline. */
export function secondsLeft(): number | null {
  const deadlineAt = current.getStore();
  return deadlineAt === undefined ? null : Math.max(1, Math.ceil((deadlineAt - Date.now()) / 1000));
}
