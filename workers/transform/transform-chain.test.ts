import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { storeFile } from "../files/file-store.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { freezeClockInsideMinute } from "../test-support/frozen-clock.ts";
import { problemOf, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";

describe("URL-transform middleware chain", () => {
  it("applies the key's rate limit past the edge cache only, and names the key's own scopes as the caller", async () => {
    freezeClockInsideMinute();
    const app = createApp();
    // A key limited to another scope: transform URLs never needed a scope, and still do not.
    const caller = await seedCaller({ scopes: ["pdf"] });
    const body = await generatedBytes("photo.png");
    const file = await storeFile(env, { accountId: caller.accountId, kind: "source", body, size: body.byteLength, contentType: "image/png", expiresAt: Date.now() + 3_600_000 });
    const call = (transform: string) =>
      fetchWithEnv({ RATE_LIMIT_PER_MINUTE: "2" }, new Request(`http://api.test/v1/image/t/${caller.keyId}/${transform}/${file.id}`), app);

    const miss = await call("w_64,f_webp");
    expect(miss.status).toBe(200);
    expect(miss.headers.get("X-Cache-Tier")).toBe("compute");
    expect(miss.headers.get("RateLimit")).toMatch(/^"per-key";r=1;t=\d+$/);
    await miss.arrayBuffer();

    // Edge-cache hits cost no D1 or R2 read and are not counted.
    for (let i = 0; i < 3; i++) {
      const hit = await call("w_64,f_webp");
      expect(hit.headers.get("X-Cache-Tier")).toBe("edge");
      expect(hit.headers.get("RateLimit")).toBeNull();
      await hit.arrayBuffer();
    }

    expect((await call("w_48,f_webp")).headers.get("RateLimit")).toMatch(/r=0;/);
    const limited = await problemOf(await call("w_32,f_webp"));
    expect(limited.status).toBe(429);
  });

  it("checks the path against the route's schema before looking the key up", async () => {
    const problem = await problemOf(await fetchWithEnv({}, new Request(`http://api.test/v1/image/t/${"k".repeat(65)}/w_64/file_x`), createApp()));
    expect(problem.status).toBe(400);
    expect(problem.type).toMatch(/validation_failed/);
  });
});
