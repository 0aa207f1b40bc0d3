import { describe, expect, it } from "vitest";
import { concurrencyLimit } from "./concurrency-limit.ts";

describe("concurrencyLimit", () => {
  it("never runs more than the limit at once and runs everything", async () => {
    const run = concurrencyLimit(2);
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        run(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 5));
          active--;
          return i;
        }),
      ),
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(2);
  });

  it("frees the slot when a task throws", async () => {
    const run = concurrencyLimit(1);
    await expect(run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(run(() => Promise.resolve(1))).resolves.toBe(1);
  });
});
