// What a transform URL may name under a remote origin. The edge checks the path as it arrives and
// the client checks it before building a URL, with this one function, so a URL the client makes
// is one the edge serves. The path is appended to the origin's base URL as it was written (still
// percent-encoded), so it must not be able to leave that base: no dot segments, no backslashes,
// and no escapes that decode to a slash, a backslash or a dot.

export const ORIGIN_NAME_PATTERN = /^[a-z0-9-]{1,32}$/;
export const MAX_ORIGIN_PATH_LENGTH = 1024;

// %2F and %5C decode to separators some servers honour; %2E lets `..` hide from a segment check;
// %00 ends strings in C servers. `?` and `#` never reach here from a URL, but a client may pass them.
const FORBIDDEN_ESCAPES = /%(2f|5c|2e|00)/i;

/** A segment after the transform that starts like this is a file id; any other is an origin name. */
export const FILE_ID_PREFIX = "file_";

/** Why `path` (from the first `/` after the origin name, as written in the URL) cannot be fetched, or null. */
export function originPathProblem(path: string): string | null {
  if (!path.startsWith("/") || path === "/") return "the path under the origin is empty";
  if (path.length > MAX_ORIGIN_PATH_LENGTH) return `the path is longer than ${MAX_ORIGIN_PATH_LENGTH} characters`;
  if (path.includes("\\")) return "the path holds a backslash";
  if (/[?#]/.test(path)) return "the path holds a query or fragment; query strings are not forwarded to the origin";
  if (FORBIDDEN_ESCAPES.test(path)) return "the path holds an encoded slash, backslash, dot or NUL";
  for (const segment of path.slice(1).split("/")) {
    if (segment === "." || segment === "..") return "the path holds a dot segment";
    if (segment === "") return "the path holds an empty segment";
    try {
      decodeURIComponent(segment);
    } catch {
      return `the segment ${segment} is not valid percent-encoding`;
    }
  }
  return null;
}

/** The upstream URL for a checked path: the base URL (which ends in `/`) with the path appended. */
export function originUrl(baseUrl: string, path: string): string {
  return baseUrl + path.slice(1);
}
