import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { ComputeSlots } from "./compute-slots.ts";
import { checkDeadline, currentTicket } from "./deadline.ts";

function slugOf(error: unknown): string | null {
  return error instanceof ProblemError ? error.slug : null;
}

describe("ComputeSlots", () => {
  it("answers work past its deadline processing_timeout and gives its slot to the next call then, not when the work ends", async () => {
    const slots = new ComputeSlots({ size: 1 });
    let finishStuckWork = () => undefined as void;
    const stuck = slots.run({ account: "A", deadlineAt: Date.now() + 50 }, "The stuck work", () => new Promise<void>((resolve) => (finishStuckWork = resolve)));
    const next = slots.run({ account: "B" }, "The next work", () => Promise.resolve("ran while the stuck work still ran"));
    expect(slugOf(await stuck.catch((error: unknown) => error))).toBe("processing_timeout");
    expect(await next).toBe("ran while the stuck work still ran");
    await nextTurn();
    expect(slots.load()).toEqual({ size: 1, busy: 0, queued: 0, timedOut: 1 });
    finishStuckWork();
    await nextTurn();
    expect(slots.load()).toEqual({ size: 1, busy: 0, queued: 0, timedOut: 1 });
  });

  it("stops work that checks the deadline at its next step", async () => {
    const slots = new ComputeSlots({ size: 1 });
    let steps = 0;
    const endless = slots.run({ account: "A", deadlineAt: Date.now() + 50 }, "The endless work", async () => {
      for (;;) {
        checkDeadline("The endless work");
        steps++;
        await nextTurn();
      }
    });
    expect(slugOf(await endless.catch((error: unknown) => error))).toBe("processing_timeout");
    expect(steps).toBeGreaterThan(0);
  });

  it("hands the call's account and deadline to the work (the ticket a worker pool job takes)", async () => {
    const slots = new ComputeSlots({ size: 1 });
    const deadlineAt = Date.now() + 60_000;
    expect(await slots.run({ account: "A", deadlineAt }, "The work", () => Promise.resolve(currentTicket()))).toEqual({ account: "A", deadlineAt });
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
