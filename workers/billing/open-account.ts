import { findAccount, insertAccount, type AccountRecord, type Plan } from "../accounts/account-store.ts";
import { newId } from "../crypto/ids.ts";
import { orm } from "../db/orm.ts";
import { grantTopUp } from "./d1-ledger.ts";

/**
 * A new account with its opening balance, in one D1 batch (one transaction): the account's row,
 * and the opening top-up granted for its shard to apply (./d1-ledger.ts) the first time it is
 * asked for money, so the account is never seen without the balance it was opened with, and the
 * books hold the top-up that made it.
 */
export async function openAccount(
  db: D1Database,
  options: { name: string; plan: Plan; balanceMicros: number; id?: string },
  now = Date.now(),
): Promise<AccountRecord> {
  const id = options.id ?? newId("acct");
  const account = insertAccount(db, { id, name: options.name, plan: options.plan }, now);
  if (options.balanceMicros > 0) {
    await orm(db).batch([account, grantTopUp(db, id, { reference: `opening:${id}`, micros: options.balanceMicros }, now)]);
  } else {
    await account.run();
  }
  const opened = await findAccount(db, id);
  if (!opened) throw new Error(`account ${id} was not stored`);
  return opened;
}
