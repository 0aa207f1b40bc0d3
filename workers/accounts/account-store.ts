import { topUp } from "../billing/charge-once.ts";
import { newId } from "../crypto/ids.ts";

export type Plan = "free" | "pro";

export interface AccountRecord {
  id: string;
  name: string;
  plan: Plan;
  balance_micros: number;
  created_at: number;
}

export async function findAccount(db: D1Database, accountId: string): Promise<AccountRecord | null> {
  return db
    .prepare("SELECT id, name, plan, balance_micros, created_at FROM accounts WHERE id = ?")
    .bind(accountId)
    .first<AccountRecord>();
}

/** New accounts start at zero; an opening balance goes through the ledger like any top-up. */
export async function createAccount(
  db: D1Database,
  options: { name: string; plan: Plan; balanceMicros: number; id?: string },
  now = Date.now(),
): Promise<AccountRecord> {
  const id = options.id ?? newId("acct");
  await db
    .prepare("INSERT INTO accounts (id, name, plan, balance_micros, created_at) VALUES (?, ?, ?, 0, ?)")
    .bind(id, options.name, options.plan, now)
    .run();
  if (options.balanceMicros > 0) await topUp(db, id, options.balanceMicros, `opening:${id}`);
  return (await findAccount(db, id))!;
}
