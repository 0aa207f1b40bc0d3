// Which of an account's file shards (workers/shards/file-shard.ts) holds a file. An account's new
// files spread over FILE_SHARDS_PER_ACCOUNT shards, so its busiest second is that many objects'
// load, not one's. The shard a file went to is written into its id when it is made, so the setting
// can be raised without moving a file: `file_`, the shard as one base62 digit, then 20 random
// characters. An id of the first form (`file_` and 20 random characters) is shard 0's, the one
// every account started with.
import { base62Digit, encodeBase62, randomBase62 } from "../crypto/base62.ts";

/** A file shard: its account, and which of the account's file shards (0 the first). */
export interface FileShardName {
  accountId: string;
  index: number;
}

/** One base62 digit names the shard. */
export const MAX_FILE_SHARDS = 62;
const RANDOM_CHARACTERS = 20;
/** What every file id starts with. */
export const FILE_ID_PREFIX = "file_";

/** The configured file shards per account (FILE_SHARDS_PER_ACCOUNT, a whole number from 1 to 62), 1 when unset. */
export function fileShardsPerAccount(configured: string | undefined): number {
  const shards = Number(configured);
  return Number.isInteger(shards) && shards >= 1 && shards <= MAX_FILE_SHARDS ? shards : 1;
}

/** A new file's id, in one of `shards` shards chosen at random. */
export function newFileId(shards: number): string {
  const shard = crypto.getRandomValues(new Uint32Array(1))[0]! % shards;
  return `${FILE_ID_PREFIX}${encodeBase62(shard, 1)}${randomBase62(RANDOM_CHARACTERS)}`;
}

/** The shard a file id names; 0 for an id of the first form (and for anything that is no file id, which no shard holds). */
export function fileShardOf(fileId: string): number {
  if (!fileId.startsWith(FILE_ID_PREFIX) || fileId.length !== FILE_ID_PREFIX.length + 1 + RANDOM_CHARACTERS) return 0;
  return Math.max(0, base62Digit(fileId[FILE_ID_PREFIX.length]!));
}
