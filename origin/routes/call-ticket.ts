// Whose call this is and when it must be answered: the account from the edge's header (an
// unreadable one shares the unnamed turn), the deadline from contracts/limits/deadlines.ts,
// counted from the call's arrival so time spent waiting for a worker counts too.
import type { Context } from "hono";
import { originDeadlineMs, type DeadlinePath } from "../../contracts/limits/deadlines.ts";
import { ORIGIN_ACCOUNT_HEADER } from "../../contracts/origin/framing.ts";
import { SHARED_ACCOUNT, type JobTicket } from "../worker-pool/job-ticket.ts";

const ACCOUNT_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function accountOf(header: string | undefined): string {
  return header !== undefined && ACCOUNT_PATTERN.test(header) ? header : SHARED_ACCOUNT;
}

/** Started when a call arrives; its `ticket` is taken once the input's size (and, for an image, the megapixels it works on) is known. */
export type CallClocks = (c: Context, path: DeadlinePath) => { ticket: (inputBytes: number, megapixels?: number) => Required<JobTicket> };

/**
 * `deadlineScale` (0 < scale <= 1, ORIGIN_DEADLINE_SCALE) shortens every deadline, never
 * lengthens one: the edge stops waiting a grace beyond the declared deadline.
 */
export function callClocks(deadlineScale = 1): CallClocks {
  if (!(deadlineScale > 0 && deadlineScale <= 1)) throw new RangeError(`deadline scale ${deadlineScale} is not in (0, 1]`);
  return (c, path) => {
    const arrivedAt = Date.now();
    const account = accountOf(c.req.header(ORIGIN_ACCOUNT_HEADER));
    return { ticket: (inputBytes, megapixels) => ({ account, deadlineAt: arrivedAt + Math.round(originDeadlineMs(path, inputBytes, megapixels) * deadlineScale) }) };
  };
}
