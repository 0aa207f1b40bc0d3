import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RateWindowCounter } from "./rate-window-counter.ts";

const counter = (subject: string) => env.RATE_WINDOWS.get(env.RATE_WINDOWS.idFromName(subject));

describe("RateWindowCounter", () => {
  it("counts requests sent at once one after the other, each seeing its own count", async () => {
    const subject = counter(`key_${crypto.randomUUID()}`);
    const counts = await Promise.all(Array.from({ length: 40 }, () => subject.count(60_000)));
    expect(counts.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("starts each window at one and keeps subjects apart", async () => {
    const a = counter(`key_${crypto.randomUUID()}`);
    const b = counter(`key_${crypto.randomUUID()}`);
    expect([await a.count(0), await a.count(0), await b.count(0)]).toEqual([1, 2, 1]);
    expect(await a.count(60_000)).toBe(1);
  });

  it("keeps the window in its storage, so an object started again goes on counting", async () => {
    const subject = counter(`key_${crypto.randomUUID()}`);
    await subject.count(120_000);
    await subject.count(120_000);
    const stored = await runInDurableObject(subject, (_instance: RateWindowCounter, state) => state.storage.get<{ start: number; count: number }>("window"));
    expect(stored).toEqual({ start: 120_000, count: 2 });
  });
});
