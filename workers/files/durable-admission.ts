// Whether the account may keep one more durable file. Called after the file's row is in (a
// pending row reserves its size), so two requests racing for the last of the quota both see each
// other and neither can take the account past it; the caller ends its row when refused.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Plan } from "../accounts/account-store.ts";
import { durableStorageQuotaBytes } from "../accounts/plan-limits.ts";
import { owedStorageMicros } from "../billing/storage-charge-store.ts";
import { durableUsage, type FileIndexEnv } from "./file-store.ts";

/** 402 while a storage day is owed; 413 when the account's durable files, `addedBytes` included, pass its plan's quota. */
export async function checkDurableAdmission(env: { DB: D1Database } & FileIndexEnv, accountId: string, plan: Plan, addedBytes: number): Promise<void> {
  const owed = await owedStorageMicros(env.DB, accountId);
  if (owed > 0) {
    throw new ProblemError(
      "storage_charge_owed",
      `${owed} micros of durable storage are owed and the balance does not cover them: top up, and the next sweep settles them. Until then no new durable file is accepted; files that expire still are.`,
      { extensions: { owed_micros: owed } },
    );
  }
  const quota = durableStorageQuotaBytes[plan];
  const reserved = await durableUsage(env, accountId, "reserved");
  if (reserved.bytes > quota) {
    const usedBytes = reserved.bytes - addedBytes;
    throw new ProblemError(
      "storage_quota_exceeded",
      `This file's ${addedBytes} bytes would take durable storage to ${reserved.bytes} bytes; the ${plan} plan keeps at most ${quota}. Nothing was stored.`,
      { extensions: { quota_bytes: quota, used_bytes: usedBytes } },
    );
  }
}
