// Operator CLI (access is granted by request; there is no sign-up). Writes to the local D1 that
// `npm start` uses, or with --remote to the deployed one. Money moves in each account's shard: a
// top-up is granted here and applied by the shard, once per reference (workers/billing/d1-ledger.ts).
//   npm run admin -- accounts create --name NAME --plan free|pro --balance-micros N
//   npm run admin -- accounts topup --account ACCOUNT_ID --micros N --reference REF
//   npm run admin -- accounts show --account ACCOUNT_ID
//   npm run admin -- accounts set --account ACCOUNT_ID [--plan free|pro] [--retention-hours N]
//   npm run admin -- keys create --account ACCOUNT_ID [--name NAME] [--scopes images,pdf]
//   npm run admin -- keys revoke --account ACCOUNT_ID --key KEY_ID
//   npm run admin -- reconcile [--since-hours N] [--job-deadline-minutes N]   (exit 1 when the books do not balance)
import { parseArgs } from "node:util";
import { findAccount, findAccountSettings, updateAccountSettings } from "../workers/accounts/account-store.ts";
import { openAccount } from "../workers/billing/open-account.ts";
import { scopes as knownScopes, type Scope } from "../workers/auth/scopes.ts";
import { fedBalance, grantTopUp } from "../workers/billing/d1-ledger.ts";
import { createKey, revokeKey } from "../workers/keys/key-store.ts";
import { DEFAULT_PERSIST_DIR, openPlatform } from "./lib/local-platform.ts";
import { ledgerFeedSettled } from "./soak/ledger-feed-settled.ts";
import { platformFailures, reconcilePlatform } from "./soak/reconcile.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    plan: { type: "string" },
    "balance-micros": { type: "string", default: "0" },
    micros: { type: "string" },
    reference: { type: "string" },
    account: { type: "string" },
    key: { type: "string" },
    scopes: { type: "string" },
    "retention-hours": { type: "string" },
    "since-hours": { type: "string" },
    "job-deadline-minutes": { type: "string", default: "30" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
    remote: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") fail(`--${name} is required`);
  return value;
}

function micros(name: "balance-micros" | "micros"): number {
  const n = Number(required(name));
  if (!Number.isSafeInteger(n) || n < 0) fail(`--${name} must be a non-negative integer number of micro-dollars`);
  return n;
}

function parseScopes(): Scope[] | null {
  if (!values.scopes) return null;
  const list = values.scopes.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = list.filter((s) => !(knownScopes as readonly string[]).includes(s));
  if (unknown.length) fail(`unknown scopes: ${unknown.join(", ")} (known: ${knownScopes.join(", ")})`);
  return list as Scope[];
}

const [resource, action] = positionals;
const platform = await openPlatform({ persistTo: values["persist-to"], remote: values.remote });
const db = platform.env.DB;
try {
  if (resource === "accounts" && action === "create") {
    const plan = values.plan ?? "free";
    if (plan !== "free" && plan !== "pro") fail("--plan must be free or pro");
    const account = await openAccount(db, { name: required("name"), plan, balanceMicros: micros("balance-micros") });
    console.log(JSON.stringify(account, null, 2));
  } else if (resource === "accounts" && action === "topup") {
    const accountId = required("account");
    if (!(await findAccount(db, accountId))) fail(`no account ${accountId}`);
    const granted = await grantTopUp(db, accountId, { micros: micros("micros"), reference: required("reference") }, Date.now()).returning().get();
    console.log(JSON.stringify({ granted: granted !== undefined, account: await findAccount(db, accountId) }, null, 2));
    if (granted) console.error("Granted: the account's shard applies it at the account's next balance check or account read, once per reference.");
    else console.error("A top-up with this reference is already waiting to be applied; nothing changed.");
  } else if (resource === "accounts" && action === "show") {
    const account = await findAccount(db, required("account"));
    if (!account) fail(`no account ${values.account}`);
    // The balance itself is in the account's shard; the shared database has what the ledger feed last carried.
    console.log(JSON.stringify({ ...account, fed_balance_micros: await fedBalance(db, account.id) }, null, 2));
  } else if (resource === "accounts" && action === "set") {
    const accountId = required("account");
    if (!(await findAccount(db, accountId))) fail(`no account ${accountId}`);
    if (values.plan !== undefined) {
      if (values.plan !== "free" && values.plan !== "pro") fail("--plan must be free or pro");
      await updateAccountSettings(db, accountId, { plan: values.plan });
    }
    if (values["retention-hours"] !== undefined) {
      const hours = Number(values["retention-hours"]);
      if (!Number.isInteger(hours) || hours < 1 || hours > 24 * 30) fail("--retention-hours must be a whole number from 1 to 720");
      await updateAccountSettings(db, accountId, { retention_hours: hours });
    }
    console.log(JSON.stringify({ ...(await findAccount(db, accountId)), ...(await findAccountSettings(db, accountId)) }, null, 2));
  } else if (resource === "keys" && action === "create") {
    const accountId = required("account");
    if (!(await findAccount(db, accountId))) fail(`no account ${accountId}`);
    const { record, secret } = await createKey(db, accountId, { name: values.name ?? null, scopes: parseScopes() });
    console.log(JSON.stringify({ key_id: record.id, account_id: accountId, scopes: record.scopes, secret }, null, 2));
    console.error("The secret is shown once; only its hash is stored.");
  } else if (resource === "keys" && action === "revoke") {
    console.log(JSON.stringify({ outcome: await revokeKey(db, required("account"), required("key")) }));
  } else if (resource === "reconcile") {
    const sinceHours = values["since-hours"] === undefined ? null : Number(values["since-hours"]);
    const deadlineMinutes = Number(values["job-deadline-minutes"]);
    if ((sinceHours !== null && !(sinceHours > 0)) || !(deadlineMinutes > 0)) fail("--since-hours and --job-deadline-minutes must be positive numbers");
    await ledgerFeedSettled(db);
    const books = await reconcilePlatform(db, platform.env.FILES, {
      since: sinceHours === null ? undefined : Date.now() - sinceHours * 3_600_000,
      jobDeadlineMs: deadlineMinutes * 60_000,
    });
    const { requestCharges, webhooks, ...report } = books;
    const { deliveredIds, ...webhookCounts } = webhooks;
    const failures = platformFailures(books);
    console.log(JSON.stringify({ ...report, webhooks: webhookCounts, request_charges: requestCharges.length, failures }, null, 2));
    if (failures.length > 0) process.exitCode = 1;
  } else {
    fail("usage: accounts create|topup|show|set, keys create|revoke, reconcile (see the header of scripts/admin.ts)");
  }
} finally {
  await platform.dispose();
}
