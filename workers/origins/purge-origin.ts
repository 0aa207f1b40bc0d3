// Purges what was cached from an origin: some paths, every path under a prefix, or (neither) the
// whole origin, as the origin's deletion does; in every data centre when the zone is configured.
import { purgeZoneUrls, type CdnPurge, type ZonePurgeEnv } from "../cdn/zone-purge.ts";
import type { Bindings } from "../env.ts";
import { deleteDerivativesUnder } from "../derivatives/derivative-store.ts";
import type { CacheKeyEnv } from "../derivatives/edge-cache.ts";
import { dropCachedPaths } from "./drop-cached.ts";
import { deleteOriginObjects } from "./origin-object-store.ts";
import { originPrefix } from "./origin-source-id.ts";
import type { OriginRecord } from "./origin-store.ts";

type PurgeEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS"> & CacheKeyEnv & ZonePurgeEnv;

export interface PurgeCounts {
  originals: number;
  derivatives: number;
  edge_entries: number;
  cdn: CdnPurge;
}

export async function purgeOrigin(env: PurgeEnv, origin: OriginRecord, which: { paths?: string[]; prefix?: string }): Promise<PurgeCounts> {
  const objects = await deleteOriginObjects(env.DB, origin.id, which);
  const { cacheUrls, ...counts } = await dropCachedPaths(env, origin, objects);
  if (which.paths === undefined && which.prefix === undefined) {
    // Derivatives whose path row a concurrent purge already took: none may outlive the origin.
    counts.derivatives += (await deleteDerivativesUnder(env, origin.account_id, originPrefix(origin.id))).length;
  }
  return { ...counts, cdn: await purgeZoneUrls(env, cacheUrls) };
}
