// How long an original stays fresh: what the origin's Cache-Control (s-maxage, then max-age) or
// Expires grants, clamped so a `no-cache` origin is not fetched on every miss and a
// ten-year max-age does not pin an image a customer has since replaced.
export const MIN_FRESH_SECONDS = 60;
export const MAX_FRESH_SECONDS = 30 * 24 * 3600;
export const DEFAULT_FRESH_SECONDS = 24 * 3600;
/** How long an origin's 404 or 410 is believed. */
export const MISSING_SECONDS = 60;

function clamp(seconds: number): number {
  return Math.min(MAX_FRESH_SECONDS, Math.max(MIN_FRESH_SECONDS, Math.floor(seconds)));
}

/** The clamped lifetime the headers grant, or null when they say nothing about it. */
export function grantedSeconds(headers: Headers, now = Date.now()): number | null {
  const directives = (headers.get("Cache-Control") ?? "").toLowerCase().split(",").map((d) => d.trim());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return MIN_FRESH_SECONDS;
  for (const name of ["s-maxage", "max-age"]) {
    const directive = directives.find((d) => d.startsWith(`${name}=`));
    const seconds = directive ? Number(directive.slice(name.length + 1).replace(/"/g, "")) : NaN;
    if (Number.isFinite(seconds)) return clamp(seconds);
  }
  const expires = headers.get("Expires");
  if (expires !== null) {
    const at = Date.parse(expires);
    const date = Date.parse(headers.get("Date") ?? "");
    // An unparseable Expires means already expired (RFC 9111 5.3).
    return clamp(Number.isNaN(at) ? 0 : (at - (Number.isNaN(date) ? now : date)) / 1000);
  }
  return null;
}
