// After attempt n fails, the next one waits RETRY_DELAYS_S[n-1] (Standard Webhooks' suggested
// schedule), +-20% jitter so that a recovering endpoint is not hit by every retry at once.
// Eight attempts over about 27 hours; the last failure ends the event.
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
/** Cloudflare Queues refuse delays longer than 12 hours; longer waits hop through the queue. */
export const QUEUE_MAX_DELAY_S = 12 * 3600;

/** Milliseconds to wait after `failedAttempt` failed, or null when no attempt is left. */
export function nextRetryDelayMs(failedAttempt: number, random = Math.random): number | null {
  const base = RETRY_DELAYS_S[failedAttempt - 1];
  if (base === undefined) return null;
  const jitter = 1 + (random() * 2 - 1) * 0.2;
  return Math.round(base * 1000 * jitter);
}
