// The daily storage charge, run by the scheduled handler. The first sweep of a UTC day records
// each account's durable bytes and that day's price (contracts/pricing.ts, storageDayPrice); every
// sweep then charges the days not charged yet, once each under the charge key storage:<day>. A
// day the balance cannot cover stays owed and is tried again at the next sweep; while it is owed
// new durable files are refused (durable-admission.ts) and nothing stored is deleted.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { STORAGE_CHARGE, storageDayPrice } from "../../contracts/pricing.ts";
import { storageChargeKey } from "../billing/charge-key.ts";
import { chargeOnce } from "../billing/charge-once.ts";
import { markStorageDayCharged, recordStorageDays, unchargedStorageDays, type StorageDay } from "../billing/storage-charge-store.ts";
import type { AccountShards } from "../shards/shard-stub.ts";
import { durableBytesByAccount } from "./d1-files.ts";

// Days tried per sweep: one charge statement each. Owed days are tried in (day, account) order
// from a cursor, so days that keep failing never hold back the ones after them.
const DAYS_PER_PAGE = 200;
const PAGES_PER_SWEEP = 10;

export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export interface StorageSweep {
  charged: number;
  owed: number;
}

/** Records today's durable storage for every account that has some, then charges what is not charged yet. */
export async function chargeDurableStorage(env: { DB: D1Database } & AccountShards, now: number): Promise<StorageSweep> {
  const db = env.DB;
  const day = utcDay(now);
  const usage = await durableBytesByAccount(db);
  const days: StorageDay[] = usage
    .filter((account) => account.bytes > 0)
    .map((account) => ({ accountId: account.accountId, day, durableBytes: account.bytes, amountMicros: storageDayPrice(account.bytes) }));
  await recordStorageDays(db, days, now);

  const outcome: StorageSweep = { charged: 0, owed: 0 };
  let after: { day: string; accountId: string } | null = null;
  for (let page = 0; page < PAGES_PER_SWEEP; page++) {
    const uncharged = await unchargedStorageDays(db, after, DAYS_PER_PAGE);
    for (const owedDay of uncharged) {
      if (await chargeStorageDay(env, owedDay, now)) outcome.charged++;
      else outcome.owed++;
    }
    if (uncharged.length < DAYS_PER_PAGE) break;
    const last = uncharged[uncharged.length - 1]!;
    after = { day: last.day, accountId: last.accountId };
  }
  return outcome;
}

/** True when the day is paid (now or by an earlier sweep that stopped before recording it); false when it stays owed. */
async function chargeStorageDay(env: { DB: D1Database } & AccountShards, storageDay: StorageDay, now: number): Promise<boolean> {
  try {
    await chargeOnce(
      env,
      { accountId: storageDay.accountId, chargeKey: storageChargeKey(storageDay.day), operation: STORAGE_CHARGE, amountMicros: storageDay.amountMicros },
      now,
    );
  } catch (error) {
    if (error instanceof ProblemError && error.slug === "insufficient_balance") return false;
    throw error;
  }
  await markStorageDayCharged(env.DB, storageDay.accountId, storageDay.day, now);
  return true;
}
