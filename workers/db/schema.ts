import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are integer epoch milliseconds; money is integer micro-dollars.

// balance_micros only moves through the ledger trigger (migrations/0001_ledger_debit.sql), and the
// CHECK makes an overdrawing charge fail inside the same statement that records it.
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "pro"] }).notNull(),
    balanceMicros: integer("balance_micros").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [check("balance_non_negative", sql`${t.balanceMicros} >= 0`)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name"),
    secretHash: text("secret_hash").notNull(),
    displayPrefix: text("display_prefix").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_secret_hash").on(t.secretHash), index("api_keys_account").on(t.accountId)],
);

// One row per charge. `chargeKey` names what is being paid for (a request, a job, a derivative);
// its uniqueness is what makes "billed at most once" hold under retries and races.
export const ledger = sqliteTable(
  "ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    chargeKey: text("charge_key").notNull(),
    operation: text("operation").notNull(),
    amountMicros: integer("amount_micros").notNull(),
    units: integer("units").notNull().default(1),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_charge_key").on(t.accountId, t.chargeKey),
    index("ledger_account_time").on(t.accountId, t.createdAt),
  ],
);

export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    accountId: text("account_id").notNull(),
    keyId: text("key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.keyId, t.idempotencyKey] }),
    index("idempotency_expiry").on(t.expiresAt),
  ],
);

export const rateWindows = sqliteTable(
  "rate_windows",
  {
    keyId: text("key_id").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);

