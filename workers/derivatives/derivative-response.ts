// The response headers of a derivative, whichever tier served it. A file's derivative never
// changes (a different transform is a different URL), so caches may keep it for a year without
// asking. An origin path's derivative changes when its original does, so it is cached only as
// long as the original stays fresh.
import { CRITICAL_HINTS, OPT_IN_HINTS, type NegotiatedHeader } from "../../contracts/transform/negotiate.ts";

export const IMMUTABLE = "public, max-age=31536000, immutable";

export type Tier = "edge" | "r2" | "compute";

/** A request header a derivative's bytes depend on: Accept for f_auto, Save-Data and ECT for q_auto, the client hints for w_auto and dpr_auto. */
export type VaryHeader = NegotiatedHeader;

export interface DerivativeMeta {
  etag: string;
  contentType: string;
  bytes: number;
  vary: readonly VaryHeader[];
  /** Epoch ms the origin path's original stays fresh until; absent for a file's derivative (immutable). */
  freshUntil?: number;
  /** Served past its freshness because the origin failed (`X-Cache: STALE`). */
  stale?: boolean;
}

export function cacheControl(meta: Pick<DerivativeMeta, "freshUntil">, now = Date.now()): string {
  if (meta.freshUntil === undefined) return IMMUTABLE;
  return `public, max-age=${Math.max(0, Math.floor((meta.freshUntil - now) / 1000))}`;
}

export function derivativeHeaders(meta: DerivativeMeta, tier: Tier): Headers {
  const headers = new Headers({
    "Content-Type": meta.contentType,
    "Content-Length": String(meta.bytes),
    ETag: meta.etag,
    "Cache-Control": cacheControl(meta),
    "X-Cache": meta.stale ? "STALE" : tier === "compute" ? "MISS" : "HIT",
    "X-Cache-Tier": tier,
    "X-Content-Type-Options": "nosniff",
  });
  if (meta.vary.length > 0) headers.set("Vary", meta.vary.join(", "));
  // The browser sends these hints again only if asked: on the page's own response, or on this one
  // (Critical-CH: a navigation retried with them) when the image is opened directly.
  const optIn = meta.vary.filter((header) => OPT_IN_HINTS.includes(header));
  if (optIn.length > 0) headers.set("Accept-CH", optIn.join(", "));
  const critical = meta.vary.filter((header) => CRITICAL_HINTS.includes(header));
  if (critical.length > 0) headers.set("Critical-CH", critical.join(", "));
  return headers;
}

export function strongEtag(hexDigest: string): string {
  return `"${hexDigest.slice(0, 32)}"`;
}

/** RFC 9110 If-None-Match: a list of entity tags or `*`, compared weakly. */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}

export function derivativeResponse(body: BodyInit | null, meta: DerivativeMeta, tier: Tier, ifNoneMatch: string | null | undefined): Response {
  const headers = derivativeHeaders(meta, tier);
  if (matchesIfNoneMatch(ifNoneMatch, meta.etag)) {
    headers.delete("Content-Length");
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}
