import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type * as shardSchema from "./shard-schema.ts";

/** An account shard's own SQLite database, through drizzle. */
export type ShardDb = DrizzleSqliteDODatabase<typeof shardSchema>;
