// What each plan may keep. Durable files (no expiry) count against the quota; files that expire
// with the account's retention do not.
import type { Plan } from "./account-store.ts";

const GB = 1_000_000_000;

export const durableStorageQuotaBytes: Record<Plan, number> = {
  free: 1 * GB,
  pro: 100 * GB,
};
