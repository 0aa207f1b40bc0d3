// Forgets what was cached from an origin's paths: their originals in R2, their derivatives (rows
// and objects, every version) and this data centre's edge-cache entries for them. Used by purge,
// by deleting an origin, and when an origin says a path is gone; a revalidating purge drops only
// the entries.
import type { Bindings } from "../env.ts";
import { deleteDerivativesUnder, type DroppedDerivative } from "../derivatives/derivative-store.ts";
import { deleteEdgeCache, MAX_EDGE_CACHE_PURGES, originCacheKeyUrl, type CacheKeyEnv } from "../derivatives/edge-cache.ts";
import { deleteMezzaninesOf } from "../derivatives/mezzanine-store.ts";
import type { DroppedObject } from "./shard-origins.ts";
import { originSourceId, pathPrefix } from "./origin-source-id.ts";
import type { OriginRecord } from "./origin-store.ts";
import { deleteObjects } from "../objects/delete-objects.ts";

type DropEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS"> & CacheKeyEnv;

export interface DropCounts {
  originals: number;
  derivatives: number;
  edge_entries: number;
  /** The cache URL of every derivative dropped (one per path, transform and class), for a purge beyond this data centre. */
  cacheUrls: string[];
}

export type CachedOrigin = Pick<OriginRecord, "id" | "name" | "account_id">;

export async function dropCachedPaths(env: DropEnv, origin: CachedOrigin, objects: DroppedObject[]): Promise<DropCounts> {
  const counts: DropCounts = { originals: 0, derivatives: 0, edge_entries: 0, cacheUrls: [] };
  const originals = objects.flatMap((object) => (object.r2_key ? [object.r2_key] : []));
  await deleteObjects(env.FILES, originals);
  counts.originals = originals.length;
  for (const { path, version } of objects) {
    const dropped = await deleteDerivativesUnder(env, origin.account_id, await pathPrefix(origin.id, path));
    const versions = new Set([...dropped.map((d) => d.fileId), ...(version ? [await originSourceId(origin.id, path, version)] : [])]);
    await deleteMezzaninesOf(env.FILES, [...versions]);
    counts.derivatives += dropped.length;
    await dropEdgeEntries(env, origin, path, dropped, counts);
  }
  return counts;
}

/** Drops a path's edge-cache entries for the given derivatives, counting them in `counts`. */
export async function dropEdgeEntries(env: CacheKeyEnv, origin: CachedOrigin, path: string, made: DroppedDerivative[], counts: DropCounts): Promise<void> {
  // One entry per transform and class, whatever version it was made from.
  const entries = new Map(made.map((d) => [`${d.canonical}\n${d.formatClass}`, d]));
  for (const { canonical, formatClass } of entries.values()) {
    const url = originCacheKeyUrl(env, origin.account_id, origin.name, path, canonical, formatClass);
    counts.cacheUrls.push(url);
    if (counts.edge_entries < MAX_EDGE_CACHE_PURGES && (await deleteEdgeCache(url))) counts.edge_entries++;
  }
}
