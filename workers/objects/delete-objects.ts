import { inChunks } from "../db/in-chunks.ts";

// R2's delete takes at most 1,000 keys a call.
const KEYS_PER_DELETE = 1000;

/** Deletes every key, however many; a key with no object is no error. */
export async function deleteObjects(bucket: R2Bucket, keys: readonly string[]): Promise<void> {
  for (const chunk of inChunks(keys, KEYS_PER_DELETE)) await bucket.delete(chunk);
}
