import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { problemOf, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { freezeClockInsideMinute } from "../test-support/frozen-clock.ts";

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
});
