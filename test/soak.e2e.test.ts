// bench:soak compressed to one minute: the same faults in the same order (origin SIGKILL and
// SIGTERM restarts, a proxy delaying, resetting, corrupting and truncating origin replies, every
// async job's message delivered twice), and every zero-target of the books must hold. It starts
// its own pair (its origin must be killable), beside the e2e project's shared one.
import { describe, expect, it } from "vitest";
import { runSoak } from "../scripts/soak/run-soak.ts";

const RSS_TARGET = "origin RSS";

describe("one-minute soak with faults", () => {
  it(
    "loses no job, charges nothing twice or without its output, loses no webhook, keeps no corrupt reply, and 5xx only inside fault windows",
    async () => {
      const figures = await runSoak({ durationMs: 60_000, concurrency: 3, drainMs: 45_000, jobDeadlineMs: 120_000 });
      // Six seconds of warm-up cannot reach the origin's working level (its PDF thread starts on the
      // first PDF job): memory flatness is the 5-minute bench's figure, not this one's.
      expect(figures.failures.filter((f) => !f.startsWith(RSS_TARGET)), JSON.stringify(figures.details).slice(0, 4000)).toEqual([]);
      // The run did what it claims: faults were injected and the workload went through them.
      expect(figures.faults.map((f) => f.kind)).toContain("proxy corrupt");
      expect(figures.proxyInjected.corrupt + figures.proxyInjected.truncate + figures.proxyInjected.reset).toBeGreaterThan(0);
      expect(figures.jobs.accepted).toBeGreaterThan(5);
      expect(figures.jobs.redelivered).toBeGreaterThan(0);
      expect(figures.jobs.succeeded + figures.jobs.failed + figures.jobs.cancelled).toBe(figures.jobs.accepted);
      expect(figures.charges.chargedSyncCalls).toBeGreaterThan(5);
      expect(figures.webhooks.receivedIds).toBe(figures.jobs.accepted);
      expect(figures.outputs.checked).toBeGreaterThan(10);
    },
    170_000,
  );
});
