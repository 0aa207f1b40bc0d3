import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { countersPerKey, countInWindow } from "./fixed-window.ts";
import type { RateWindowCounter } from "./rate-window-counter.ts";

const WINDOW = 600_000;

async function counted(rule: Parameters<typeof countInWindow>[1]): Promise<number | "refused"> {
  try {
    await countInWindow(env.RATE_WINDOWS, rule, WINDOW + 1_000);
    return 1;
  } catch (error) {
    if (error instanceof ProblemError && error.slug === "rate_limited") return "refused";
    throw error;
  }
}

describe("countInWindow", () => {
  it("refuses the request past the limit, and says what remains", async () => {
    const rule = { subject: `key_${crypto.randomUUID()}`, limit: 3, policy: "per-key", exceeded: "three a minute" };
    const first = await countInWindow(env.RATE_WINDOWS, rule, WINDOW + 1_000);
    expect(first.RateLimit).toBe('"per-key";r=2;t=59');
    const results = [await counted(rule), await counted(rule), await counted(rule)];
    expect(results).toEqual([1, 1, "refused"]);
  });

  it("spreads a subject over its counters, each holding an equal share of the limit, and refuses past the whole", async () => {
    const rule = { subject: `key_${crypto.randomUUID()}`, limit: 40, policy: "per-key", exceeded: "forty a minute", counters: 4 };
    const results = [];
    for (let i = 0; i < 41; i++) results.push(await counted(rule));
    expect(results.filter((r) => r === 1)).toHaveLength(40);
    expect(results.at(-1)).toBe("refused");
    const shares = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        runInDurableObject(env.RATE_WINDOWS.get(env.RATE_WINDOWS.idFromName(`${rule.subject}#${i}`)), (_counter: RateWindowCounter, state) => state.storage.get<{ count: number }>("window")),
      ),
    );
    expect(shares.map((window) => window!.count).toSorted()).toEqual([10, 10, 10, 11]);
  });

  it("takes a whole number of counters from 1 to 64 from configuration, else 1", () => {
    expect([countersPerKey("8"), countersPerKey(undefined), countersPerKey("0"), countersPerKey("2.5"), countersPerKey("65"), countersPerKey("x")]).toEqual([8, 1, 1, 1, 1, 1]);
  });
});
