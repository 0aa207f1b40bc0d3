import { env, runInDurableObject } from "cloudflare:test";
import { accountShard, fileShard } from "../shards/shard-stub.ts";

/** Runs a query on the account's own shard database (workers/shards/shard-migrations.ts has its tables), as a test reads state there. */
export function shardRows<Row>(accountId: string, query: string, ...bindings: unknown[]): Promise<Row[]> {
  return runInDurableObject(accountShard(env, accountId), (_shard, state) => state.storage.sql.exec<Record<string, SqlStorageValue>>(query, ...bindings).toArray() as Row[]);
}

/** Runs a query on the account's file index (workers/shards/file-shard.ts), as a test reads or plants file rows there. */
export function fileShardRows<Row>(accountId: string, query: string, ...bindings: unknown[]): Promise<Row[]> {
  return runInDurableObject(fileShard(env, accountId), (_shard, state) => state.storage.sql.exec<Record<string, SqlStorageValue>>(query, ...bindings).toArray() as Row[]);
}
