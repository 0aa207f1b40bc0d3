import { transformPath } from "../../../contracts/transform/path.ts";
import { sourceSegment, type ImageSources } from "./image-source.ts";
import { canonicalOf, specOf, type Transform } from "./transform-tokens.ts";

export interface ImageUrlConfig extends ImageSources {
  /** The API's origin, e.g. `https://api.pixelpress.dev`. */
  baseUrl: string;
  /** The public id of an active API key (never the secret key): it names the account. */
  keyId: string;
}

/** Writes a URL for one canonical transform; the signing entry point adds `s_` to it. */
export type UrlWriter = (src: string, canonical: string) => string;

export function absoluteTransformUrl(config: ImageUrlConfig, src: string, segment: string): string {
  const path = transformPath(encodeURIComponent(config.keyId), segment, sourceSegment(config, src));
  return `${config.baseUrl.replace(/\/+$/, "")}${path}`;
}

export function unsignedWriter(config: ImageUrlConfig): UrlWriter {
  return (src, canonical) => absoluteTransformUrl(config, src, canonical);
}

/** The URL of one derivative of `src` (a file id, a path under defaultOrigin, a URL under one of origins), its tokens in the edge's canonical order. */
export function transformUrl(config: ImageUrlConfig, src: string, transform: Transform): string {
  return unsignedWriter(config)(src, canonicalOf(specOf(transform)));
}
