import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { RateWindowCounter } from "./rate-window-counter.ts";

const WINDOW_SECONDS = 60;

// Which of a subject's counters this isolate counts the next request in: each isolate takes them
// in turn, so a subject's requests spread evenly over its counters.
let turn = 0;

/**
 * Counts one request against `subject`'s fixed one-minute window and returns the headers that
 * describe it (draft-ietf-httpapi-ratelimit-headers: the policy, then what remains and when the
 * window resets); over `limit`, a 429 carrying them and Retry-After.
 *
 * A subject's window is one counter object, exact, or (`counters` > 1) that many, each holding an
 * equal share of the limit: one object takes about 1,000 requests a second, so a subject busier
 * than that spreads over several, at the cost of a 429 that may come a little early or late when
 * its requests reach the counters unevenly (docs/scale.md).
 */
export async function countInWindow(
  namespace: DurableObjectNamespace<RateWindowCounter>,
  rule: { subject: string; limit: number; policy: string; exceeded: string; counters?: number },
  now = Date.now(),
): Promise<Record<string, string>> {
  const windowStart = Math.floor(now / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_SECONDS * 1000 - now) / 1000));
  const counters = rule.counters ?? 1;
  const counter = counters === 1 ? rule.subject : `${rule.subject}#${turn++ % counters}`;
  const share = Math.ceil(rule.limit / counters);
  const counted = await namespace.get(namespace.idFromName(counter)).count(windowStart);
  // The subject's whole window, as this counter's share of it suggests.
  const used = counted * counters;
  const headers = {
    "RateLimit-Policy": `"${rule.policy}";q=${rule.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${rule.policy}";r=${Math.max(0, rule.limit - used)};t=${resetSeconds}`,
  };
  if (counted > share) {
    throw new ProblemError("rate_limited", rule.exceeded, {
      extensions: { retry_after_seconds: resetSeconds },
      headers: { ...headers, "Retry-After": String(resetSeconds) },
    });
  }
  return headers;
}

/** The configured requests per minute (RATE_LIMIT_PER_MINUTE), 600 when unset. */
export function perMinuteLimit(configured: string): number {
  return Number(configured) || 600;
}

/** The most counters a key's window may be spread over. */
export const MAX_COUNTERS_PER_KEY = 64;

/** The configured counters per key (RATE_WINDOW_COUNTERS_PER_KEY, a whole number from 1 to MAX_COUNTERS_PER_KEY), 1 when unset. */
export function countersPerKey(configured: string | undefined): number {
  const counters = Number(configured);
  return Number.isInteger(counters) && counters >= 1 && counters <= MAX_COUNTERS_PER_KEY ? counters : 1;
}
