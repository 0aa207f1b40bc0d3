import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { ComputeSlots } from "./compute-slots.ts";
import { checkDeadline } from "./deadline.ts";

function slugOf(error: unknown): string | null {
  return error instanceof ProblemError ? error.slug : null;
}

describe("ComputeSlots", () => {
  it("answers work past its deadline processing_timeout, holds the slot until the work stops at its next step, then runs the next call", async () => {
    const slots = new ComputeSlots({ size: 1 });
    let steps = 0;
    let stopped = false;
    const endless = slots.run({ account: "A", deadlineAt: Date.now() + 50 }, "The endless work", async () => {
      try {
        for (;;) {
          checkDeadline("The endless work");
          steps++;
          await nextTurn();
        }
      } finally {
        stopped = true;
      }
    });
    const next = slots.run({ account: "B" }, "The next work", () => Promise.resolve(stopped ? "ran after the endless work stopped" : "ran beside it"));
    expect(slugOf(await endless.catch((error: unknown) => error))).toBe("processing_timeout");
    expect(await next).toBe("ran after the endless work stopped");
    expect(steps).toBeGreaterThan(0);
    await nextTurn();
    expect(slots.load()).toEqual({ size: 1, busy: 0, queued: 0, timedOut: 1 });
  });

  it("answers a call still waiting at its deadline as busy (503), without running it", async () => {
    const slots = new ComputeSlots({ size: 1 });
    let release = () => undefined as void;
    const held = slots.run({ account: "A" }, "held", () => new Promise<void>((resolve) => (release = resolve)));
    let ran = false;
    const waiting = slots.run({ account: "B", deadlineAt: Date.now() + 20 }, "waiting", () => {
      ran = true;
      return Promise.resolve();
    });
    const failure = await waiting.catch((error: unknown) => error);
    expect(slugOf(failure)).toBe("origin_unavailable");
    expect((failure as ProblemError).status).toBe(503);
    release();
    await held;
    expect(ran).toBe(false);
  });

  it("takes turns across accounts and lets one account hold only its share", async () => {
    const slots = new ComputeSlots({ size: 2, maxPerAccount: 1 });
    const done: string[] = [];
    const releases: (() => void)[] = [];
    const track = (name: string, account: string) =>
      slots.run({ account }, name, () => new Promise<void>((resolve) => releases.push(resolve))).then(() => done.push(name));
    const all = [track("a1", "A"), track("a2", "A"), track("b1", "B")];
    // a1 and b1 run; a2 waits for A's share although a slot is free for B.
    expect(slots.load()).toMatchObject({ busy: 2, queued: 1 });
    releases[1]!();
    await all[2];
    releases[0]!();
    await all[0];
    await nextTurn();
    releases[2]!();
    await Promise.all(all);
    expect(done).toEqual(["b1", "a1", "a2"]);
  });
});
