import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../index.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { insertPendingFile, markFileReady, storeFile } from "./file-store.ts";
import { chargeDurableStorage } from "./storage-meter.ts";
import { balanceOf, grantTopUpOf, ledgerOf } from "../test-support/account-books.ts";
import { fileReportFed } from "../test-support/file-report.ts";

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const DAY = 86_400_000;

/**
 * A ready durable file of `sizeBytes` as far as the books go: metering reads rows, never objects,
 * from the shared report the account's file shard feeds.
 */
async function durableRow(accountId: string, sizeBytes: number) {
  const pending = await insertPendingFile(env, { accountId, kind: "source", contentType: "image/png", sizeBytes, expiresAt: null });
  const ready = (await markFileReady(env, accountId, pending.id))!;
  await fileReportFed(accountId);
  return ready;
}

async function runScheduled(scheduledTime: number): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ scheduledTime, cron: "*/15 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function storageCharges(accountId: string): Promise<{ charge_key: string; amount_micros: number; operation: string }[]> {
  const rows = await ledgerOf(accountId, (row) => row.chargeKey.startsWith("storage:"));
  return rows.map((row) => ({ charge_key: row.chargeKey, amount_micros: row.amountMicros, operation: row.operation })).sort((a, b) => a.charge_key.localeCompare(b.charge_key));
}

function storeDurable(caller: TestCaller) {
  return api("/v1/files", { key: caller, json: { source: { base64: PNG_1X1 }, expires_at: null } });
}

describe("the daily storage charge", () => {
  it("charges an account's durable bytes once per UTC day however many sweeps run, and shows it in usage and the account", async () => {
    const caller = await seedCaller({ balanceMicros: 1_000_000 });
    await durableRow(caller.accountId, 1_500_000_000);
    // Files that expire are not durable storage.
    await storeFile(env, { accountId: caller.accountId, kind: "source", body: new Uint8Array(10), size: 10, contentType: "image/png", expiresAt: Date.now() + DAY });
    const morning = Date.UTC(2030, 2, 10, 0, 5);
    await runScheduled(morning);
    await runScheduled(morning + 15 * 60_000);
    // 1.5 GB for a day: 1.5 × 500 micros.
    expect(await storageCharges(caller.accountId)).toEqual([{ charge_key: "storage:2030-03-10", amount_micros: 750, operation: "files.storage" }]);
    expect(await balanceOf(caller.accountId)).toBe(1_000_000 - 750);

    await runScheduled(morning + DAY);
    expect((await storageCharges(caller.accountId)).map((c) => c.charge_key)).toEqual(["storage:2030-03-10", "storage:2030-03-11"]);
    expect(await balanceOf(caller.accountId)).toBe(1_000_000 - 1_500);

    const usage = await api("/v1/usage?from=2030-03-10&to=2030-03-11&group_by=operation", { key: caller });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ total: { count: 2, micros: 1_500 }, data: [{ operation: "files.storage", count: 2, micros: 1_500 }] });
    const account = await api("/v1/account", { key: caller });
    expect(await account.json()).toMatchObject({ storage: { durable_bytes: 1_500_000_000, durable_files: 1, quota_bytes: 100_000_000_000, owed_micros: 0 } });
  });

  it("keeps a day the balance cannot cover as owed: new durable files are 402, nothing is deleted, and a top-up settles it", async () => {
    const caller = await seedCaller({ balanceMicros: 0 });
    const kept = await durableRow(caller.accountId, 1_000_000_000);
    const day = Date.UTC(2031, 5, 1, 3, 0);
    await runScheduled(day);
    await runScheduled(day + DAY);
    expect(await storageCharges(caller.accountId)).toEqual([]);

    const refused = await problemOf(await storeDurable(caller));
    expect(refused).toMatchObject({ status: 402, type: "https://pixelpress.dev/problems/storage_charge_owed", owed_micros: 1_000 });
    const file = await (await api(`/v1/files/${kept.id}`, { key: caller })).json();
    expect(file).toMatchObject({ status: "ready", expires_at: null });
    expect((await api("/v1/files", { key: caller, json: { source: { base64: PNG_1X1 } } })).status).toBe(201);
    expect(await (await api("/v1/account", { key: caller })).json()).toMatchObject({ storage: { owed_micros: 1_000 } });

    await grantTopUpOf(caller.accountId, 10_000, "invoice-storage");
    // The account read applies it at once (a charge that falls short looks at most every 2 s).
    expect(await balanceOf(caller.accountId)).toBe(10_000);
    expect(await chargeDurableStorage(env, day + DAY + 60_000)).toMatchObject({ owed: 0 });
    expect(await storageCharges(caller.accountId)).toEqual([
      { charge_key: "storage:2031-06-01", amount_micros: 500, operation: "files.storage" },
      { charge_key: "storage:2031-06-02", amount_micros: 500, operation: "files.storage" },
    ]);
    expect(await balanceOf(caller.accountId)).toBe(9_000);
    expect((await storeDurable(caller)).status).toBe(201);
  });
});
