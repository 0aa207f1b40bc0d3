// Purges what was cached from an origin: some paths, every path under a prefix, or (neither) the
// whole origin, as the origin's deletion does.
import type { Bindings } from "../env.ts";
import { deleteDerivativesUnder } from "../transform/derivative-store.ts";
import { dropCachedPaths, type DropCounts } from "./drop-cached.ts";
import { deleteOriginObjects } from "./origin-object-store.ts";
import { originPrefix } from "./origin-source-id.ts";
import type { OriginRecord } from "./origin-store.ts";

type PurgeEnv = Pick<Bindings, "DB" | "FILES">;

export async function purgeOrigin(env: PurgeEnv, origin: OriginRecord, which: { paths?: string[]; prefix?: string }): Promise<DropCounts> {
  const objects = await deleteOriginObjects(env.DB, origin.id, which);
  const counts = await dropCachedPaths(env, origin, objects);
  if (which.paths === undefined && which.prefix === undefined) {
    // Derivatives whose path row a concurrent purge already took: none may outlive the origin.
    counts.derivatives += (await deleteDerivativesUnder(env, origin.account_id, originPrefix(origin.id))).length;
  }
  return counts;
}
