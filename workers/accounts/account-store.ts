// Every statement on `accounts` but the ledger feed's (workers/billing/d1-ledger.ts). The balance
// is not here: it lives in the account's shard (workers/billing/charge-once.ts); an account is
// opened with its opening balance by billing (workers/billing/open-account.ts), which batches this
// store's insert with the opening top-up's grant.
import { eq } from "drizzle-orm";
import { isolateMemo } from "../memo/isolate-memo.ts";
import { orm } from "../db/orm.ts";
import { accounts } from "../db/schema.ts";

export type Plan = "free" | "pro";

export interface AccountRecord {
  id: string;
  name: string;
  plan: Plan;
  created_at: number;
}

const accountColumns = {
  id: accounts.id,
  name: accounts.name,
  plan: accounts.plan,
  created_at: accounts.createdAt,
};

export async function findAccount(db: D1Database, accountId: string): Promise<AccountRecord | null> {
  return (await orm(db).select(accountColumns).from(accounts).where(eq(accounts.id, accountId)).get()) ?? null;
}

/**
 * A new account's row: a statement, un-awaited, so billing can batch it with the opening top-up's
 * grant (one transaction) and the account never exists without its balance.
 */
export function insertAccount(db: D1Database, account: { id: string; name: string; plan: Plan }, now: number) {
  return orm(db).insert(accounts).values({ ...account, createdAt: now });
}

export interface AccountSettings {
  plan: Plan;
  retention_hours: number;
  require_signed_transforms: boolean;
}

// Every call that keeps a file reads its account's retention (a batch of ten read it ten times):
// remembered in the isolate like a key (workers/memo/isolate-memo.ts), so a change takes effect at
// once in the isolate that made it and within MEMO_MS in the others.
const settingsSeen = isolateMemo<AccountSettings | null>();

export function findAccountSettings(db: D1Database, accountId: string): Promise<AccountSettings | null> {
  return settingsSeen.get(accountId, async () => {
    const row = await orm(db)
      .select({ plan: accounts.plan, retention_hours: accounts.retentionHours, require_signed_transforms: accounts.requireSignedTransforms })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .get();
    return row ?? null;
  });
}

export async function updateAccountSettings(db: D1Database, accountId: string, settings: Partial<AccountSettings>): Promise<void> {
  const set = {
    ...(settings.plan !== undefined ? { plan: settings.plan } : {}),
    ...(settings.retention_hours !== undefined ? { retentionHours: settings.retention_hours } : {}),
    ...(settings.require_signed_transforms !== undefined ? { requireSignedTransforms: settings.require_signed_transforms } : {}),
  };
  if (Object.keys(set).length === 0) return;
  await orm(db).update(accounts).set(set).where(eq(accounts.id, accountId)).run();
  settingsSeen.forget(accountId);
}

export interface AccountWebhook {
  url: string;
  secretSealed: string;
}

/** The account-level endpoint, used by jobs that name none; null when none is set. */
export async function findAccountWebhook(db: D1Database, accountId: string): Promise<AccountWebhook | null> {
  const row = await orm(db)
    .select({ url: accounts.webhookUrl, secretSealed: accounts.webhookSecretSealed })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .get();
  return row?.url && row.secretSealed ? { url: row.url, secretSealed: row.secretSealed } : null;
}

/** Sets (or with null, removes) the account-level endpoint. */
export async function setAccountWebhook(db: D1Database, accountId: string, webhook: AccountWebhook | null): Promise<void> {
  await orm(db)
    .update(accounts)
    .set({ webhookUrl: webhook?.url ?? null, webhookSecretSealed: webhook?.secretSealed ?? null })
    .where(eq(accounts.id, accountId))
    .run();
}
