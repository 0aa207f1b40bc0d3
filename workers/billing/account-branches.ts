// Which of an account's shards a charge, a derivative or a job goes to. An account has as many
// shards as it has file shards (FILE_SHARDS_PER_ACCOUNT, workers/files/file-shard-index.ts): the
// first holds its money and idempotency records; each branch holds an allotment of that money
// (./shard-transfers.ts), the derivatives of the files its number names and the jobs whose ids name
// it. So the busiest account's misses, sync calls and jobs spread over that many objects instead of
// queueing on one.
//
// A placement never moves: a charge key lands where the same key landed before, or charge-once
// would not hold. A derivative and its charge go with its source's file shard digit, which the file
// id carries; a job, its webhook's attempts and its charge with the digit its id carries; a sync
// request's key names a request that runs once, in one isolate, under one setting; everything else
// (top-ups, storage) stays in the first shard.
import { crc32 } from "../crypto/crc32.ts";
import { fileShardOf, fileShardsPerAccount } from "../files/file-shard-index.ts";
import type { Bindings } from "../env.ts";
import { accountShard, type AccountShards } from "../shards/shard-stub.ts";
import { newPlacedId, placeOfId } from "../crypto/ids.ts";
import { jobOfChargeKey, REQUEST_CHARGE_PREFIX } from "./charge-key.ts";

export type BranchEnv = AccountShards & Pick<Bindings, "FILE_SHARDS_PER_ACCOUNT">;

/** How many shards the account's money and derivatives spread over. */
export function accountBranches(env: Pick<Bindings, "FILE_SHARDS_PER_ACCOUNT">): number {
  return fileShardsPerAccount(env.FILE_SHARDS_PER_ACCOUNT);
}

/** The shard that keeps every origin path's derivatives: an origin path's source id is no file id, and names the first. */
export const ORIGIN_PATHS_BRANCH = 0;

/** The shard that keeps a source's derivatives and charges for them: the one its file's id names (an origin path's: ORIGIN_PATHS_BRANCH). */
export function derivativeBranch(sourceId: string): number {
  return fileShardOf(sourceId);
}

/** A new job's id, naming one of the account's shards chosen at random. */
export function newJobId(env: Pick<Bindings, "FILE_SHARDS_PER_ACCOUNT">): string {
  return newPlacedId("job", crypto.getRandomValues(new Uint32Array(1))[0]! % accountBranches(env));
}

/** The shard that keeps a job and its webhook's attempts and charges for it: its id's digit (a job made before ids named one: 0). */
export function jobBranch(jobId: string): number {
  return placeOfId("job", jobId);
}

/** The shard a charge made on its own is recorded in. */
export function chargeBranch(env: Pick<Bindings, "FILE_SHARDS_PER_ACCOUNT">, chargeKey: string): number {
  const job = jobOfChargeKey(chargeKey);
  if (job !== null) return jobBranch(job);
  const branches = accountBranches(env);
  return branches > 1 && chargeKey.startsWith(REQUEST_CHARGE_PREFIX) ? crc32(chargeKey) % branches : 0;
}

/** Every shard of the account, for what spans them (its usage, its whole balance, a purge by prefix). */
export function everyBranch(env: BranchEnv, accountId: string) {
  return Array.from({ length: accountBranches(env) }, (_, branch) => accountShard(env, accountId, branch));
}
