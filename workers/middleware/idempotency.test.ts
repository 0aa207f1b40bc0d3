import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";

function createKeyWith(caller: TestCaller, idempotencyKey: string, name = "retry-safe") {
  return api("/v1/keys", { key: caller, json: { name }, headers: { "Idempotency-Key": idempotencyKey } });
}

async function keyCount(accountId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ?").bind(accountId).first<{ n: number }>();
  return row!.n;
}

describe("Idempotency-Key", () => {
  it("replays the stored response for a retry and does not run the handler again", async () => {
    const caller = await seedCaller();
    const first = await createKeyWith(caller, "k-1");
    const body = await first.text();
    const retry = await createKeyWith(caller, "k-1");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await retry.text()).toBe(body);
    expect(await keyCount(caller.accountId)).toBe(2);
  });

  it("treats a bare token and the same RFC 8941 quoted string as one key", async () => {
    const caller = await seedCaller();
    await createKeyWith(caller, "order-42");
    const quoted = await createKeyWith(caller, '"order-42"');
    expect(quoted.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await keyCount(caller.accountId)).toBe(2);
  });

  it("runs concurrent retries exactly once: one result, the rest replays or 409s", async () => {
    const caller = await seedCaller();
    const responses = await Promise.all(Array.from({ length: 6 }, () => createKeyWith(caller, "burst")));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = responses.filter((r) => r.status === 201 && r.headers.get("Idempotent-Replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const conflict of responses.filter((r) => r.status === 409)) {
      expect(conflict.headers.get("Retry-After")).toBe("1");
      expect((await problemOf(conflict)).type).toMatch(/idempotency_conflict$/);
    }
    expect(await keyCount(caller.accountId)).toBe(2);
  });

  it("rejects the same key with a different payload with 422", async () => {
    const caller = await seedCaller();
    await createKeyWith(caller, "k-2", "one");
    const problem = await problemOf(await createKeyWith(caller, "k-2", "two"));
    expect(problem.status).toBe(422);
    expect(problem.type).toMatch(/idempotency_key_reused$/);
    expect(await keyCount(caller.accountId)).toBe(2);
  });

  it("scopes keys per account: another account's identical key runs independently", async () => {
    const a = await seedCaller();
    const b = await seedCaller();
    await createKeyWith(a, "shared");
    const res = await createKeyWith(b, "shared");
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await keyCount(b.accountId)).toBe(2);
  });

  it("stores a 4xx answer and replays it for the same request", async () => {
    const caller = await seedCaller();
    const bad = await api("/v1/keys", { key: caller, json: { name: "" }, headers: { "Idempotency-Key": "k-3" } });
    expect(bad.status).toBe(400);
    const again = await api("/v1/keys", { key: caller, json: { name: "" }, headers: { "Idempotency-Key": "k-3" } });
    expect(again.status).toBe(400);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it.each(['"unterminated', "has space", "x".repeat(256), '""'])("rejects the malformed key %s", async (value) => {
    const caller = await seedCaller();
    const problem = await problemOf(await createKeyWith(caller, value));
    expect(problem.status).toBe(400);
    expect(problem.errors![0]!.pointer).toBe("/headers/idempotency-key");
  });
});
