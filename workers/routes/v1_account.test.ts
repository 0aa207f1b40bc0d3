import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chargeOnce } from "../billing/charge-once.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";

describe("/v1/account and /v1/usage", () => {
  it("reports balance and this month's usage by operation, excluding top-ups", async () => {
    const caller = await seedCaller({ plan: "free", balanceMicros: 50_000 });
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "a", operation: "image.optimize", amountMicros: 800 });
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "b", operation: "image.optimize", amountMicros: 800 });
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "c", operation: "pdf.analyze", amountMicros: 0 });
    const res = await api("/v1/account", { key: caller });
    expect(res.status).toBe(200);
    const account = await res.json<{
      account_id: string;
      plan: string;
      balance_micros: number;
      usage: { count: number; micros: number; by_operation: { operation: string; count: number; micros: number }[] };
    }>();
    expect(account).toMatchObject({ account_id: caller.accountId, plan: "free", balance_micros: 48_400, require_signed_transforms: false });
    expect(account.usage.count).toBe(3);
    expect(account.usage.micros).toBe(1_600);
    expect(account.usage.by_operation).toEqual([
      { operation: "image.optimize", count: 2, micros: 1_600 },
      { operation: "pdf.analyze", count: 1, micros: 0 },
    ]);
  });

  it("aggregates usage by day and by operation over a period", async () => {
    const caller = await seedCaller();
    const day = (iso: string) => Date.parse(iso);
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "d1", operation: "xlsx.generate", amountMicros: 5_020 }, day("2026-10-30T12:00:00Z"));
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "d2", operation: "image.optimize", amountMicros: 800 }, day("2026-10-31T23:59:59Z"));
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "d3", operation: "image.optimize", amountMicros: 800 }, day("2026-11-01T00:00:00Z"));

    const byDay = await (await api("/v1/usage?from=2026-10-30&to=2026-10-31&group_by=day", { key: caller })).json<{ data: unknown[]; total: unknown }>();
    expect(byDay.data).toEqual([
      { day: "2026-10-30", count: 1, micros: 5_020 },
      { day: "2026-10-31", count: 1, micros: 800 },
    ]);
    expect(byDay.total).toEqual({ count: 2, micros: 5_820 });

    const byOp = await (await api("/v1/usage?from=2026-10-01&to=2026-11-30&group_by=operation", { key: caller })).json<{ data: unknown[] }>();
    expect(byOp.data).toEqual([
      { operation: "image.optimize", count: 2, micros: 1_600 },
      { operation: "xlsx.generate", count: 1, micros: 5_020 },
    ]);
  });

  it("groups by day and operation together, one row per pair that had a charge", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const at = (iso: string) => Date.parse(iso);
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "e1", operation: "image.optimize", amountMicros: 800 }, at("2026-10-30T01:00:00Z"));
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "e2", operation: "image.optimize", amountMicros: 800 }, at("2026-10-30T23:00:00Z"));
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "e3", operation: "pdf.compress", amountMicros: 20_000 }, at("2026-10-30T12:00:00Z"));
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "e4", operation: "image.optimize", amountMicros: 800 }, at("2026-10-31T08:00:00Z"));
    await chargeOnce(env, { accountId: caller.accountId, chargeKey: "e5", operation: "image.optimize", amountMicros: 800 }, at("2026-11-01T00:00:00Z"));

    const res = await api("/v1/usage?from=2026-10-30&to=2026-10-31&group_by=day_operation", { key: caller });
    expect(res.status).toBe(200);
    const usage = await res.json<{ group_by: string; data: unknown[]; total: unknown }>();
    expect(usage.group_by).toBe("day_operation");
    expect(usage.data).toEqual([
      { day: "2026-10-30", operation: "image.optimize", count: 2, micros: 1_600 },
      { day: "2026-10-30", operation: "pdf.compress", count: 1, micros: 20_000 },
      { day: "2026-10-31", operation: "image.optimize", count: 1, micros: 800 },
    ]);
    expect(usage.total).toEqual({ count: 4, micros: 22_400 });
  });

  it.each([
    ["from after to", "from=2026-11-02&to=2026-11-01", "/query/from"],
    ["a period over 366 days", "from=2025-01-01&to=2026-11-01", "/query/to"],
    ["a malformed date", "from=2026-13-01&to=2026-11-01", "/query/from"],
    ["an unknown grouping", "from=2026-11-01&to=2026-11-01&group_by=hour", "/query/group_by"],
  ])("rejects %s with a pointer", async (_name, query, pointer) => {
    const caller = await seedCaller();
    const problem = await problemOf(await api(`/v1/usage?${query}`, { key: caller }));
    expect(problem.status).toBe(400);
    expect(problem.errors!.map((e) => e.pointer)).toContain(pointer);
  });
});
