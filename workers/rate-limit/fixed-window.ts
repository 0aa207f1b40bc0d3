import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { RateWindowCounter } from "./rate-window-counter.ts";

const WINDOW_SECONDS = 60;

/**
 * Counts one request against `subject`'s fixed one-minute window in its own counter object and returns
 * the headers that describe it (draft-ietf-httpapi-ratelimit-headers: the policy, then what remains
 * and when the window resets); over `limit`, a 429 carrying them and Retry-After.
 */
export async function countInWindow(
  counters: DurableObjectNamespace<RateWindowCounter>,
  rule: { subject: string; limit: number; policy: string; exceeded: string },
  now = Date.now(),
): Promise<Record<string, string>> {
  const windowStart = Math.floor(now / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_SECONDS * 1000 - now) / 1000));
  const used = await counters.get(counters.idFromName(rule.subject)).count(windowStart);
  const headers = {
    "RateLimit-Policy": `"${rule.policy}";q=${rule.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${rule.policy}";r=${Math.max(0, rule.limit - used)};t=${resetSeconds}`,
  };
  if (used > rule.limit) {
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
