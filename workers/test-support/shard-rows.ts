import { env, runInDurableObject } from "cloudflare:test";
import { accountShard } from "../shards/shard-stub.ts";

/** Runs a query on the account's own shard database (workers/shards/shard-migrations.ts has its tables), as a test reads state there. */
export function shardRows<Row>(accountId: string, query: string, ...bindings: unknown[]): Promise<Row[]> {
  return runInDurableObject(accountShard(env, accountId), (_shard, state) => state.storage.sql.exec<Record<string, SqlStorageValue>>(query, ...bindings).toArray() as Row[]);
}
