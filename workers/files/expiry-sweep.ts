// The scheduled handler's file retention: expired files lose their row (marked deleted) and then
// their R2 object. findFile already answers 410 for an expired file before the sweep reaches it;
// the sweep is what frees the storage. Pending rows (abandoned uploads, interrupted writes)
// expire the same way.
import type { Bindings } from "../env.ts";
import { deleteDerivativesOf } from "../transform/derivative-store.ts";
import { listExpiredFiles, markFilesDeleted } from "./file-store.ts";

// R2's delete takes at most 1000 keys per call.
const KEYS_PER_DELETE = 1000;

function chunked<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Deletes up to `limit` files whose expiry is at or before `now`; returns how many. Call again
 * while it returns `limit` to drain a backlog.
 */
export async function sweepExpiredFiles(env: Pick<Bindings, "DB" | "FILES">, now = Date.now(), limit = 500): Promise<number> {
  const results = await listExpiredFiles(env.DB, now, limit);
  if (results.length === 0) return 0;

  await markFilesDeleted(env.DB, results.map((row) => row.id), now);
  for (const keys of chunked(results.map((row) => row.r2_key), KEYS_PER_DELETE)) await env.FILES.delete(keys);
  await deleteDerivativesOf(env, results.map((row) => row.id));
  return results.length;
}
