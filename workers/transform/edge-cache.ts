// The first tier: the data centre's Cache API. The key is the canonical URL plus the negotiated
// format class, never the raw Accept header or the spelling of the transform, so every spelling
// and every browser of one class share an entry. Vary is kept out of the stored response (the
// class is already in the key) and added back when serving.
import { IMMUTABLE, type DerivativeMeta } from "./derivative-response.ts";

export function edgeCacheKey(requestUrl: string, canonicalPath: string, formatClass: string): Request {
  const url = new URL(canonicalPath.replace(/\/\/+/g, "/-/"), requestUrl);
  url.search = formatClass ? `fc=${formatClass}` : "";
  return new Request(url.toString(), { method: "GET" });
}

export async function matchEdgeCache(key: Request, variesOnAccept: boolean): Promise<{ body: ReadableStream | null; meta: DerivativeMeta } | null> {
  const cached = await caches.default.match(key);
  if (!cached) return null;
  return {
    body: cached.body,
    meta: {
      etag: cached.headers.get("ETag") ?? "",
      contentType: cached.headers.get("Content-Type") ?? "application/octet-stream",
      bytes: Number(cached.headers.get("Content-Length") ?? 0),
      variesOnAccept,
    },
  };
}

export function putEdgeCache(key: Request, body: Uint8Array, meta: DerivativeMeta): Promise<void> {
  const headers = { "Content-Type": meta.contentType, "Content-Length": String(meta.bytes), ETag: meta.etag, "Cache-Control": IMMUTABLE };
  return caches.default.put(key, new Response(body, { headers }));
}

export function deleteEdgeCache(key: Request): Promise<boolean> {
  return caches.default.delete(key);
}
