// Which of an account's file shards (workers/shards/file-shard.ts) holds a file. An account's new
// files spread over FILE_SHARDS_PER_ACCOUNT shards, so its busiest second is that many objects'
// load, not one's. The shard a file went to is written into its id when it is made, so the setting
// can be raised without moving a file: `file_`, the shard as one base62 digit, then 20 random
// characters (../crypto/ids.ts newPlacedId). An id of the first form (`file_` and 20 random
// characters) is shard 0's, the one every account started with.
import { MAX_PLACES, newPlacedId, placeOfId } from "../crypto/ids.ts";

/** A file shard: its account, and which of the account's file shards (0 the first). */
export interface FileShardName {
  accountId: string;
  index: number;
}

/** One base62 digit names the shard. */
export const MAX_FILE_SHARDS = MAX_PLACES;

/** The configured file shards per account (FILE_SHARDS_PER_ACCOUNT, a whole number from 1 to 62), 1 when unset. */
export function fileShardsPerAccount(configured: string | undefined): number {
  const shards = Number(configured);
  return Number.isInteger(shards) && shards >= 1 && shards <= MAX_FILE_SHARDS ? shards : 1;
}

/** A new file's id, in one of `shards` shards chosen at random. */
export function newFileId(shards: number): string {
  return newPlacedId("file", crypto.getRandomValues(new Uint32Array(1))[0]! % shards);
}

/** The shard a file id names; 0 for an id of the first form (and for anything that is no file id, which no shard holds). */
export function fileShardOf(fileId: string): number {
  return placeOfId("file", fileId);
}
