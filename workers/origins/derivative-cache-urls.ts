// The edge-cache URL of each derivative deleted by its file (or its overlay's file), a file's or an
// origin path's alike. An origin path's entry is keyed by the origin's name and the path, which its
// row names only as `{origin id}/{path digest}/{version}`: the origin's paths are read back and
// matched by digest. A path whose row is already gone has no URL to name; its entry lives no
// longer than the original's freshness.
import type { Bindings } from "../env.ts";
import type { DerivativeIdentity } from "../derivatives/derivative-identity.ts";
import { fileCacheKeyUrl, originCacheKeyUrl, type CacheKeyEnv } from "../derivatives/edge-cache.ts";
import { originPathsById } from "./origin-object-store.ts";
import { isOriginSourceId, pathPrefix } from "./origin-source-id.ts";

type UrlEnv = Pick<Bindings, "FILE_SHARDS"> & CacheKeyEnv;

/** Path prefix (`{origin id}/{digest}/`) → origin name and path, for the accounts' origins the identities name. */
async function pathsByPrefix(env: UrlEnv, origins: Map<string, string>): Promise<Map<string, { name: string; path: string }>> {
  const byPrefix = new Map<string, { name: string; path: string }>();
  for (const [originId, accountId] of origins) {
    const origin = await originPathsById(env, accountId, originId);
    if (origin === null) continue;
    for (const path of origin.paths) byPrefix.set(await pathPrefix(originId, path), { name: origin.name, path });
  }
  return byPrefix;
}

export async function derivativeCacheUrls(env: UrlEnv, identities: DerivativeIdentity[]): Promise<string[]> {
  const fromOrigins = identities.filter((identity) => isOriginSourceId(identity.fileId));
  const byPrefix = await pathsByPrefix(env, new Map(fromOrigins.map((identity) => [identity.fileId.split("/")[0]!, identity.accountId])));
  const urls = new Set<string>();
  for (const identity of identities) {
    if (!isOriginSourceId(identity.fileId)) {
      urls.add(fileCacheKeyUrl(env, identity));
      continue;
    }
    const named = byPrefix.get(identity.fileId.slice(0, identity.fileId.lastIndexOf("/") + 1));
    // Every version of a path shares one entry.
    if (named) urls.add(originCacheKeyUrl(env, identity.accountId, named.name, named.path, identity.canonical, identity.formatClass));
  }
  return [...urls];
}
