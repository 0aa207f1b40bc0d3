import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { findAccount } from "../../workers/accounts/account-store.ts";
import { openAccount } from "../../workers/billing/open-account.ts";
import { createKey, findKey } from "../../workers/keys/key-store.ts";

export interface DevCredentials {
  account_id: string;
  key_id: string;
  secret: string;
}

const DEV_ACCOUNT_ID = "acct_development0000000";
const DEV_BALANCE_MICROS = 100_000_000;

/**
 * The development account and key, created once. Only a hash of a key is stored in D1, so the
 * secret is kept beside the local state (gitignored) to print it on every start.
 */
export async function ensureDevAccount(db: D1Database, persistTo: string): Promise<DevCredentials> {
  const file = `${persistTo}/dev-key.json`;
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as DevCredentials;
    const key = await findKey(db, saved.account_id, saved.key_id);
    if (key && key.revoked_at === null) return saved;
  }
  if (!(await findAccount(db, DEV_ACCOUNT_ID))) {
    await openAccount(db, { id: DEV_ACCOUNT_ID, name: "Development", plan: "pro", balanceMicros: DEV_BALANCE_MICROS });
  }
  const { record, secret } = await createKey(db, DEV_ACCOUNT_ID, { name: "development" });
  const credentials = { account_id: DEV_ACCOUNT_ID, key_id: record.id, secret };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
