import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextRetryDelayMs, QUEUE_MAX_DELAY_S, RETRY_DELAYS_S } from "./retry-schedule.ts";

describe("webhook retry schedule", () => {
  it("backs off exponentially-ish, with bounded jitter, and ends after the last attempt", () => {
    expect(nextRetryDelayMs(1, () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(1, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(1, () => 1)).toBe(6_000);
    expect(nextRetryDelayMs(3, () => 0.5)).toBe(30 * 60_000);
    expect(nextRetryDelayMs(MAX_ATTEMPTS, () => 0.5)).toBeNull();
    for (let i = 1; i < RETRY_DELAYS_S.length; i++) expect(RETRY_DELAYS_S[i]!).toBeGreaterThanOrEqual(RETRY_DELAYS_S[i - 1]!);
  });

  it("spans more than the queue's 12 hour delay cap in total", () => {
    const total = RETRY_DELAYS_S.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(QUEUE_MAX_DELAY_S);
  });
});
