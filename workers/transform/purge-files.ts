// Purge for files: their derivatives (rows, objects, this data centre's edge-cache entries) and
// mezzanines go; the files stay. Only the caller's own files are touched.
import type { Bindings } from "../env.ts";
import { dropDerivativesOfFiles, MAX_EDGE_CACHE_PURGES } from "../files/file-lifecycle.ts";
import { derivativesOfFiles } from "./derivative-store.ts";
import { deleteEdgeCache, edgeCacheKey } from "./edge-cache.ts";

export async function purgeFiles(env: Pick<Bindings, "DB" | "FILES">, accountId: string, fileIds: string[]) {
  const owned = await derivativesOfFiles(env.DB, accountId, fileIds);
  let edgeEntries = 0;
  // Counted here; dropDerivativesOfFiles then finds these entries gone.
  for (const identity of owned.slice(0, MAX_EDGE_CACHE_PURGES)) if (await deleteEdgeCache(edgeCacheKey(identity))) edgeEntries++;
  const derivatives = owned.length === 0 ? 0 : await dropDerivativesOfFiles(env, [...new Set(owned.map((d) => d.fileId))]);
  return { originals: 0, derivatives, edge_entries: edgeEntries };
}
