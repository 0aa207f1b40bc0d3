import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The tables of one account's shard (workers/shards/account-shard.ts): its own SQLite database,
// so nothing here carries an account id. Their DDL is shard-migrations.ts; the store tests
// exercise every column through these definitions, so the two cannot drift unnoticed.

/** What the shard has done once: the account it belongs to, the import of its D1 records. */
export const shardFacts = sqliteTable("shard_facts", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

export const shardIdempotencyRecords = sqliteTable(
  "idempotency_records",
  {
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
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] })],
);
