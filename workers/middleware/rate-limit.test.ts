import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { problemOf, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { freezeClockInsideMinute } from "../test-support/frozen-clock.ts";
import type { RateWindowCounter } from "../rate-limit/rate-window-counter.ts";

describe("rate limit", () => {
  it("counts per key, reports the policy and remaining quota, then answers 429 with Retry-After", async () => {
    const resetSeconds = freezeClockInsideMinute();
    const app = createApp();
    const limited = await seedCaller();
    const other = await seedCaller();
    const call = (secret: string) =>
      fetchWithEnv(
        { RATE_LIMIT_PER_MINUTE: "3" },
        new Request("http://api.test/v1/account", { headers: { Authorization: `Bearer ${secret}` } }),
        app,
      );
    const first = await call(limited.secret);
    expect(first.headers.get("RateLimit-Policy")).toBe('"per-key";q=3;w=60');
    expect(first.headers.get("RateLimit")).toBe(`"per-key";r=2;t=${resetSeconds}`);
    await call(limited.secret);
    expect((await call(limited.secret)).headers.get("RateLimit")).toMatch(/r=0;/);

    const blocked = await call(limited.secret);
    const problem = await problemOf(blocked);
    expect(problem.status).toBe(429);
    const retryAfter = Number(blocked.headers.get("Retry-After"));
    expect(retryAfter).toBe(resetSeconds);

    expect((await call(other.secret)).status).toBe(200);
  });

  it("spreads a key over the configured counters and still refuses past the key's whole limit", async () => {
    freezeClockInsideMinute();
    const app = createApp();
    const caller = await seedCaller();
    const call = () =>
      fetchWithEnv(
        { RATE_LIMIT_PER_MINUTE: "8", RATE_WINDOW_COUNTERS_PER_KEY: "4" },
        new Request("http://api.test/v1/account", { headers: { Authorization: `Bearer ${caller.secret}` } }),
        app,
      );
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    // Counted in four objects, two or three requests each, none in the key's single counter.
    const windowOf = (name: string) =>
      runInDurableObject(env.RATE_WINDOWS.get(env.RATE_WINDOWS.idFromName(name)), (_counter: RateWindowCounter, state) => state.storage.get<{ count: number }>("window"));
    const counts = await Promise.all([0, 1, 2, 3].map((i) => windowOf(`${caller.keyId}#${i}`)));
    expect(counts.map((window) => window!.count).toSorted()).toEqual([2, 2, 2, 3]);
    expect(await windowOf(caller.keyId)).toBeUndefined();
  });
});
