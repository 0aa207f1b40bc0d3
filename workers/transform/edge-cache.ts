// The first tier: the data centre's Cache API. The key is the derivative's identity (account,
// file, canonical transform with q_auto's level after Save-Data, negotiated format class) under
// one fixed origin, never the raw Accept or Save-Data header, the spelling of the transform, the key id or the hostname the request came in on, so
// every spelling, every key of the account, every browser of one class and every hostname serving
// the API (alias hosts, custom domains, localhost beside 127.0.0.1) share one entry, and that one
// entry can be named again from the derivative's row when its file is deleted. Vary is kept out
// of the stored response (the class is already in the key) and added back when serving.
import type { DerivativeMeta, VaryHeader } from "./derivative-response.ts";
import type { DerivativeIdentity } from "./derivative-store.ts";

// Only a name: the Cache API takes any http(s) URL as a key, and nothing is ever fetched from it.
const CACHE_KEY_ORIGIN = "https://derivative-cache.pixelpress.invalid";

export function edgeCacheKey(id: DerivativeIdentity): Request {
  const canonical = id.canonical === "" ? "-" : encodeURIComponent(id.canonical);
  const query = id.formatClass ? `?fc=${id.formatClass}` : "";
  return new Request(`${CACHE_KEY_ORIGIN}/v1/image/t/~cache/${id.accountId}/${id.fileId}/${canonical}${query}`, { method: "GET" });
}

export async function matchEdgeCache(key: Request, vary: readonly VaryHeader[]): Promise<{ body: ReadableStream | null; meta: DerivativeMeta } | null> {
  const cached = await caches.default.match(key);
  if (!cached) return null;
  return {
    body: cached.body,
    meta: {
      etag: cached.headers.get("ETag") ?? "",
      contentType: cached.headers.get("Content-Type") ?? "application/octet-stream",
      bytes: Number(cached.headers.get("Content-Length") ?? 0),
      vary,
    },
  };
}

// A durable file's derivative: as long as the immutable response itself says (a year).
const UNTIL_DELETED_MAX_AGE = 31_536_000;

/**
 * Kept no longer than the derivative's file: the cache itself drops the entry when the file
 * expires, in every data centre, where the expiry sweep's purge reaches at most the one it runs
 * in. A durable file (`fileExpiresAt` null) lives until it is deleted, so its entries are kept as
 * long as the response is immutable, and deletion purges them. Clients are still told the
 * response is immutable.
 */
export function putEdgeCache(key: Request, body: Uint8Array | ReadableStream<Uint8Array>, meta: DerivativeMeta, fileExpiresAt: number | null, now = Date.now()): Promise<void> {
  const maxAge = fileExpiresAt === null ? UNTIL_DELETED_MAX_AGE : Math.max(0, Math.floor((fileExpiresAt - now) / 1000));
  const headers = { "Content-Type": meta.contentType, "Content-Length": String(meta.bytes), ETag: meta.etag, "Cache-Control": `public, max-age=${maxAge}` };
  return caches.default.put(key, new Response(body, { headers }));
}

export function deleteEdgeCache(key: Request): Promise<boolean> {
  return caches.default.delete(key);
}
