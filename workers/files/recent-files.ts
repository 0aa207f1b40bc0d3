// The transform path's memory of the files it makes derivatives of. A page deploy asks for many
// sizes of one file at once; without it every miss would ask the account's file shard twice
// (before the work and after it). A file remembered as ready may have been deleted since, in
// another isolate: that costs the work and nothing else, since the account's shard refuses the
// derivative of a deleted file at its keep (workers/derivatives/derivative-store.ts), and the
// check after the keep (workers/files/file-lifecycle.ts, dropIfFileDeleted) asks the file shard
// itself and refreshes this memory.
import { isolateMemo } from "../memo/isolate-memo.ts";
import { findReadyFile, type FileIndexEnv, type FileRecord } from "./file-store.ts";

const RECENT_FILE_MS = 10_000;
const recent = isolateMemo<FileRecord>(RECENT_FILE_MS);
const keyOf = (accountId: string, fileId: string) => `${accountId}/${fileId}`;

/** The file's row as findReadyFile gives it, from this isolate's memory of it when that is recent and the file has not expired since. */
export async function recentReadyFile(env: FileIndexEnv, accountId: string, fileId: string, now = Date.now()): Promise<FileRecord> {
  const key = keyOf(accountId, fileId);
  const record = await recent.get(key, () => findReadyFile(env, accountId, fileId), now);
  if (record.expires_at === null || record.expires_at > now) return record;
  recent.forget(key);
  return findReadyFile(env, accountId, fileId);
}

/** What the file shard just said of a file: remembered while it is ready, forgotten otherwise. */
export function sawFile(accountId: string, fileId: string, record: FileRecord | null): void {
  if (record?.status === "ready") recent.set(keyOf(accountId, fileId), record);
  else recent.forget(keyOf(accountId, fileId));
}
