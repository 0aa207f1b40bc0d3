// Purges what was cached from an origin: some paths, every path under a prefix, or (neither) the
// whole origin, as the origin's deletion does; in every data centre when the zone is configured.
// A revalidating purge (a soft purge) keeps the originals and derivatives and only makes them
// stale: the next request asks the origin conditionally, and a 304 keeps every derivative, uncharged.
import { purgeZoneUrls, type CdnPurge, type ZonePurgeEnv } from "../cdn/zone-purge.ts";
import type { Bindings } from "../env.ts";
import { deleteDerivativesUnder, derivativesUnder } from "../derivatives/derivative-store.ts";
import type { CacheKeyEnv } from "../derivatives/edge-cache.ts";
import { dropCachedPaths, dropEdgeEntries, type DropCounts } from "./drop-cached.ts";
import { dropOriginObjects, markObjectsStale } from "./origin-object-store.ts";
import type { PathSelection } from "./shard-origins.ts";
import { originPrefix, pathPrefix } from "./origin-source-id.ts";
import type { OriginRecord } from "./origin-store.ts";

type PurgeEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS" | "FILE_SHARDS"> & CacheKeyEnv & ZonePurgeEnv;

export interface PurgeCounts {
  originals: number;
  derivatives: number;
  edge_entries: number;
  cdn: CdnPurge;
}

export async function purgeOrigin(env: PurgeEnv, origin: OriginRecord, which: PathSelection): Promise<PurgeCounts> {
  const objects = await dropOriginObjects(env, origin, which);
  const { cacheUrls, ...counts } = await dropCachedPaths(env, origin, objects);
  if (which.paths === undefined && which.prefix === undefined) {
    // Derivatives whose path row a concurrent purge already took: none may outlive the origin.
    counts.derivatives += (await deleteDerivativesUnder(env, origin.account_id, originPrefix(origin.id))).length;
  }
  return { ...counts, cdn: await purgeZoneUrls(env, cacheUrls) };
}

/** Marks the selected paths' originals stale and drops their edge entries; the originals and derivatives stay. */
export async function revalidateOrigin(env: PurgeEnv, origin: OriginRecord, which: PathSelection): Promise<PurgeCounts> {
  const paths = await markObjectsStale(env, origin, which);
  const counts: DropCounts = { originals: paths.length, derivatives: 0, edge_entries: 0, cacheUrls: [] };
  for (const path of paths) await dropEdgeEntries(env, origin, path, await derivativesUnder(env, origin.account_id, await pathPrefix(origin.id, path)), counts);
  const { cacheUrls, ...rest } = counts;
  return { ...rest, cdn: await purgeZoneUrls(env, cacheUrls) };
}
