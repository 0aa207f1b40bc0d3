// What an image's `src` names: a PixelPress file id, a path under the default origin (what a
// framework's <Image src="/hero.jpg"> hands over), or an absolute URL under one of the configured
// origins. The result is the transform URL's source part, exactly as the edge reads it (and so
// as a signature covers it), checked by the same function the edge runs.
import { originPathProblem } from "../../../contracts/transform/origin-path.ts";
import { transformInvalid } from "./transform-error.ts";

export interface ImageSources {
  /** The origin (POST /v1/origins) a path src such as `/hero.jpg` is served from. */
  defaultOrigin?: string;
  /** Origin names and their base URLs: an absolute src under one of them is served from that origin. */
  origins?: Record<string, string>;
}

// One segment is a file id, as the edge reads a URL with nothing after it; so is one a
// framework rooted (`/file_x`).
const FILE_ID = /^(?:([^/:]+)|\/(file_[A-Za-z0-9_-]{1,59}))$/;
// Only a name for resolving a path: the URL parser gives a path the encoding a browser sends.
const PATH_BASE = "http://path.invalid";

function refused(src: string, why: string): Error {
  return transformInvalid([{ pointer: "/src", detail: `src "${src}" ${why}` }]);
}

function originSegment(src: string, origin: string, path: string): string {
  const problem = originPathProblem(path);
  if (problem !== null) throw refused(src, `cannot be served: ${problem}`);
  return `${origin}${path}`;
}

/** The source part of the transform URL for `src`; a src none of the rules take is refused. */
export function sourceSegment(config: ImageSources, src: string): string {
  const fileId = FILE_ID.exec(src);
  if (fileId) return encodeURIComponent(fileId[1] ?? fileId[2]!);
  if (/^https?:\/\//i.test(src)) {
    const url = new URL(src);
    for (const [name, base] of Object.entries(config.origins ?? {})) {
      const baseUrl = new URL(base);
      const basePath = baseUrl.pathname.endsWith("/") ? baseUrl.pathname : `${baseUrl.pathname}/`;
      if (url.origin === baseUrl.origin && url.pathname.startsWith(basePath)) return originSegment(src, name, `/${url.pathname.slice(basePath.length)}`);
    }
    throw refused(src, "is under none of the configured origins");
  }
  if (src.startsWith("/")) {
    if (!config.defaultOrigin) throw refused(src, "is a path, and no defaultOrigin is configured");
    return originSegment(src, config.defaultOrigin, new URL(src, PATH_BASE).pathname);
  }
  throw refused(src, "is neither a file id (file_...), a path starting with / nor an absolute URL");
}
