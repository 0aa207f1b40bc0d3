// Drops what a preset made, when it is pointed at another transform or deleted: the derivatives
// computed through it (rows and objects), this data centre's edge-cache entries for them and, with
// the service's zone token, the same entries in every data centre, as a purge of files or origins
// does. A derivative it made is one with its expansion's own URL, so that URL is computed again on
// its next request, never charged again (the ledger's charge key is unchanged).
import { purgeZoneUrls, type ZonePurgeEnv } from "../cdn/zone-purge.ts";
import type { Bindings } from "../env.ts";
import type { PurgeCounts } from "../origins/purge-origin.ts";
import { deleteDerivatives } from "../derivatives/derivative-store.ts";
import { deleteEdgeCache, MAX_EDGE_CACHE_PURGES } from "../derivatives/edge-cache.ts";
import { takePresetDerivatives } from "./preset-derivative-store.ts";

type PurgeEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS"> & ZonePurgeEnv;

export async function purgePreset(env: PurgeEnv, accountId: string, name: string): Promise<PurgeCounts> {
  const made = await takePresetDerivatives(env.DB, accountId, name);
  const derivatives = await deleteDerivatives(env, accountId, made.map((derivative) => derivative.identity));
  const cacheUrls = [...new Set(made.map((derivative) => derivative.cacheUrl))];
  let edgeEntries = 0;
  for (const url of cacheUrls.slice(0, MAX_EDGE_CACHE_PURGES)) if (await deleteEdgeCache(url)) edgeEntries++;
  return { originals: 0, derivatives, edge_entries: edgeEntries, cdn: await purgeZoneUrls(env, cacheUrls) };
}
