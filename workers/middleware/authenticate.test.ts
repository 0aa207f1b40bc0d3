import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../auth/api-key.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";

describe("authentication", () => {
  it("accepts a valid key and records when it was last used", async () => {
    const caller = await seedCaller();
    expect((await api("/v1/account", { key: caller })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?").bind(caller.keyId).first<{ last_used_at: number | null }>();
    expect(row!.last_used_at).not.toBeNull();
  });

  it.each([
    ["no header", undefined],
    ["a non-bearer scheme", "Basic dXNlcjpwYXNz"],
    ["a malformed key", "Bearer ak_live_short"],
    ["a key with a bad checksum", "Bearer ak_live_0000000000000000000000000000000000000A"],
  ])("answers 401 for %s", async (_name, header) => {
    const res = await api("/v1/account", { headers: header ? { Authorization: header } : {} });
    const problem = await problemOf(res);
    expect(problem.status).toBe(401);
    expect(problem.type).toMatch(/unauthorized$/);
    expect(res.headers.get("X-Request-Id")).toBe(problem.request_id);
  });

  it("answers 401 for a well-formed key that does not exist", async () => {
    const { secret } = await generateApiKey();
    expect((await problemOf(await api("/v1/account", { key: secret }))).status).toBe(401);
  });

  it("answers 403 when the key lacks the route's scope, naming the scope", async () => {
    const caller = await seedCaller({ scopes: ["images"] });
    const res = await api("/v1/keys", { key: caller });
    const problem = await problemOf(res);
    expect(problem.status).toBe(403);
    expect((problem as unknown as { required_scope: string }).required_scope).toBe("keys");
  });

  it("says a key id sent instead of the secret is one, and where the secret comes from", async () => {
    const caller = await seedCaller();
    const problem = await problemOf(await api("/v1/account", { key: caller.keyId }));
    expect(problem.status).toBe(401);
    expect(problem.detail).toContain(`\`${caller.keyId}\` is a key id, not its secret`);
    expect(problem.detail).toContain("ak_live_");
    expect(problem.detail).toContain("POST /v1/keys");
  });

  it("says what a secret looks like when the value is neither a secret nor a key id", async () => {
    const problem = await problemOf(await api("/v1/account", { key: "ak_live_short" }));
    expect(problem.detail).toBe("The API key is malformed: a secret is `ak_live_` and 38 letters and digits.");
  });
});
