// How the edge reaches an account's shard: by a type-only import of the class, so the app's
// modules never load `cloudflare:workers` (the scripts that build the OpenAPI document in Node
// import the app).
import type { AccountShard } from "./account-shard.ts";

/** The account's shard. */
export function accountShard(env: { ACCOUNT_SHARDS: DurableObjectNamespace<AccountShard> }, accountId: string): DurableObjectStub<AccountShard> {
  return env.ACCOUNT_SHARDS.get(env.ACCOUNT_SHARDS.idFromName(accountId));
}
