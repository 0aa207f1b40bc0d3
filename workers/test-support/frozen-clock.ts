import { onTestFinished, vi } from "vitest";

/**
 * Freezes `Date` 15 seconds into the current minute, so the fixed one-minute rate windows a test
 * fills cannot roll over between its calls (on the wall clock a slow run straddles a minute and
 * starts counting again), until the calling test finishes. Returns the seconds left in that window.
 */
export function freezeClockInsideMinute(): number {
  const minute = 60_000;
  const intoMinute = 15_000;
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  vi.setSystemTime(Math.floor(Date.now() / minute) * minute + intoMinute);
  return (minute - intoMinute) / 1000;
}
