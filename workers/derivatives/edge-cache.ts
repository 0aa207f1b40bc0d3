// The first tier: the data centre's Cache API. The key is the derivative's identity (account,
// source, canonical transform with q_auto's level and w_auto's rung negotiated, negotiated format class) under
// one origin, PUBLIC_BASE_URL's, never the raw Accept, Save-Data, ECT or client-hint header, the spelling of the transform, the key id or the hostname the request came in on, so
// every spelling, every key of the account, every browser of one class and every hostname serving
// the API (alias hosts, custom domains, localhost beside 127.0.0.1) share one entry, and that one
// entry can be named again from the derivative's row when its file is deleted or its origin path
// purged. Vary is kept out of the stored response (the class is already in the key) and added
// back when serving.
//
// The source is a file id, or an origin name and path: the original's version is not in the key,
// since a hit must be answered without reading D1, so an origin path's entry lives only as long
// as its original is fresh, and a miss after that revalidates it.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import type { FormatClass } from "../../contracts/transform/negotiate.ts";
import type { DerivativeMeta, VaryHeader } from "./derivative-response.ts";

// The keys are URLs on the public host, though nothing is ever fetched from them (a Worker runs
// before the cache, so a visitor asking for one reaches the Worker, which has no such route): the
// Cache API stores them in that host's zone, and Cloudflare's purge-by-URL of the zone can then
// name them (workers/cdn/zone-purge.ts) to drop them in every data centre.
const FRESH_UNTIL = "X-Fresh-Until";

export type CacheKeyEnv = Pick<Bindings, "PUBLIC_BASE_URL">;

// One parse per isolate (the hit path builds a key on every request).
let parsedBase: { configured: string; origin: string } | null = null;

function cacheKeyOrigin(env: CacheKeyEnv): string {
  if (parsedBase?.configured === env.PUBLIC_BASE_URL) return parsedBase.origin;
  let origin: string;
  try {
    origin = new URL(env.PUBLIC_BASE_URL).origin;
  } catch {
    throw new ProblemError("internal_error", "PUBLIC_BASE_URL is not set to an absolute URL, so no edge-cache key can be named.");
  }
  parsedBase = { configured: env.PUBLIC_BASE_URL, origin };
  return origin;
}

export interface EdgeCacheAddress {
  accountId: string;
  /** `file_...`, or `o/{origin name}/{path}` with the path encoded as one segment. */
  source: string;
  canonical: string;
  formatClass: FormatClass | null;
}

export function cacheKeyUrl(env: CacheKeyEnv, address: EdgeCacheAddress): string {
  const canonical = address.canonical === "" ? "-" : encodeURIComponent(address.canonical);
  const query = address.formatClass === null ? "" : `?fc=${address.formatClass}`;
  return `${cacheKeyOrigin(env)}/v1/image/t/~cache/${address.accountId}/${address.source}/${canonical}${query}`;
}

/** The source part of an origin path's cache key (also the start of every key under a path prefix). */
export function originCacheSource(originName: string, path: string): string {
  return `o/${originName}/${encodeURIComponent(path)}`;
}

/** The key URL of a file's derivative. */
export function fileCacheKeyUrl(env: CacheKeyEnv, id: { accountId: string; fileId: string; canonical: string; formatClass: FormatClass | null }): string {
  return cacheKeyUrl(env, { accountId: id.accountId, source: id.fileId, canonical: id.canonical, formatClass: id.formatClass });
}

/** The key URL of an origin path's derivative. */
export function originCacheKeyUrl(env: CacheKeyEnv, accountId: string, originName: string, path: string, canonical: string, formatClass: FormatClass | null): string {
  return cacheKeyUrl(env, { accountId, source: originCacheSource(originName, path), canonical, formatClass });
}

export function edgeCacheKey(env: CacheKeyEnv, id: { accountId: string; fileId: string; canonical: string; formatClass: FormatClass | null }): Request {
  return new Request(fileCacheKeyUrl(env, id), { method: "GET" });
}

export function originEdgeCacheKey(env: CacheKeyEnv, accountId: string, originName: string, path: string, canonical: string, formatClass: FormatClass | null): Request {
  return new Request(originCacheKeyUrl(env, accountId, originName, path, canonical, formatClass), { method: "GET" });
}

export async function matchEdgeCache(key: Request, vary: readonly VaryHeader[]): Promise<{ body: ReadableStream | null; meta: DerivativeMeta } | null> {
  const cached = await caches.default.match(key);
  if (!cached) return null;
  const freshUntil = cached.headers.get(FRESH_UNTIL);
  return {
    body: cached.body,
    meta: {
      etag: cached.headers.get("ETag") ?? "",
      contentType: cached.headers.get("Content-Type") ?? "application/octet-stream",
      bytes: Number(cached.headers.get("Content-Length") ?? 0),
      vary,
      ...(freshUntil === null ? {} : { freshUntil: Number(freshUntil) }),
    },
  };
}

// A durable file's derivative: as long as the immutable response itself says (a year).
const UNTIL_DELETED_MAX_AGE = 31_536_000;

/**
 * Kept no longer than `until`: a file's expiry, or an origin path's freshness. The cache itself
 * drops the entry then, in every data centre, where a deletion's or a purge's own purge reaches
 * at most the one it runs in. A durable file (`until` null) lives until it is deleted, so its
 * entries are kept as long as the response is immutable, and deletion purges them.
 */
export function putEdgeCache(key: Request, body: Uint8Array | ReadableStream<Uint8Array>, meta: DerivativeMeta, until: number | null, now = Date.now()): Promise<void> {
  const maxAge = until === null ? UNTIL_DELETED_MAX_AGE : Math.max(0, Math.floor((until - now) / 1000));
  const headers: Record<string, string> = { "Content-Type": meta.contentType, "Content-Length": String(meta.bytes), ETag: meta.etag, "Cache-Control": `public, max-age=${maxAge}` };
  if (meta.freshUntil !== undefined) headers[FRESH_UNTIL] = String(meta.freshUntil);
  return caches.default.put(key, new Response(body, { headers }));
}

// Cache API deletes per call: each is a subrequest, and the expiry sweep deletes hundreds of files
// at once. A deletion or purge drops its derivatives from this data centre's cache up to this many;
// the rest, like every other data centre's copies, stay until the cache evicts them.
export const MAX_EDGE_CACHE_PURGES = 200;

export function deleteEdgeCache(key: Request | string): Promise<boolean> {
  return caches.default.delete(key);
}
