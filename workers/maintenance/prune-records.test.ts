import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pruneExpiredRecords } from "./prune-records.ts";

describe("pruneExpiredRecords", () => {
  it("removes only expired idempotency records", async () => {
    const now = 10_000_000_000;
    await env.DB.prepare(
      "INSERT INTO idempotency_records (account_id, key_id, idempotency_key, fingerprint, state, created_at, expires_at) VALUES ('a','k','old','f','done',0,?), ('a','k','live','f','done',0,?)",
    )
      .bind(now - 1, now + 1)
      .run();
    expect(await pruneExpiredRecords(env.DB, now)).toEqual({ idempotency: 1, droppedDerivatives: 0 });
    const keys = await env.DB.prepare("SELECT idempotency_key FROM idempotency_records WHERE account_id = 'a'").all();
    expect(keys.results).toEqual([{ idempotency_key: "live" }]);
  });
});
