import { findAccount, insertAccount, type AccountRecord, type Plan } from "../accounts/account-store.ts";
import { newId } from "../crypto/ids.ts";
import { orm } from "../db/orm.ts";
import { ledgerInsert, topUpCharge } from "./charge-once.ts";

/**
 * A new account with its opening balance, in one D1 batch (one transaction): the account's row
 * at zero, then the opening top-up through the ledger like any other, so the account is never
 * seen without the balance it was opened with, and the books hold the top-up that made it.
 */
export async function openAccount(
  db: D1Database,
  options: { name: string; plan: Plan; balanceMicros: number; id?: string },
  now = Date.now(),
): Promise<AccountRecord> {
  const id = options.id ?? newId("acct");
  const account = insertAccount(db, { id, name: options.name, plan: options.plan }, now);
  if (options.balanceMicros > 0) {
    await orm(db).batch([account, ledgerInsert(db, topUpCharge(id, options.balanceMicros, `opening:${id}`), now)]);
  } else {
    await account.run();
  }
  const opened = await findAccount(db, id);
  if (!opened) throw new Error(`account ${id} was not stored`);
  return opened;
}
