// How the edge reaches an account's shard: by a type-only import of the class, so the app's
// modules never load `cloudflare:workers` (the scripts that build the OpenAPI document in Node
// import the app).
import type { AccountShard } from "./account-shard.ts";
import { accountShardIn } from "./account-shard-name.ts";
import type { FileShard } from "./file-shard.ts";

/** The binding every account's shard is reached through. */
export interface AccountShards {
  ACCOUNT_SHARDS: DurableObjectNamespace<AccountShard>;
}

/**
 * One of the account's shards (workers/billing/account-branches.ts): the first (0) holds its money
 * and idempotency records; each branch after it an allotment of that money, and the derivatives and
 * jobs whose file and job ids name it.
 */
export function accountShard(env: AccountShards, accountId: string, branch = 0): DurableObjectStub<AccountShard> {
  return accountShardIn(env.ACCOUNT_SHARDS, accountId, branch);
}

/** The binding every account's file index is reached through. */
export interface FileShards {
  FILE_SHARDS: DurableObjectNamespace<FileShard>;
}

/** One of the account's file shards (workers/files/file-shard-index.ts); the first also keeps its origins. */
export function fileShard(env: FileShards, accountId: string, index = 0): DurableObjectStub<FileShard> {
  return env.FILE_SHARDS.get(env.FILE_SHARDS.idFromName(index === 0 ? accountId : `${accountId}/files-${index}`));
}
