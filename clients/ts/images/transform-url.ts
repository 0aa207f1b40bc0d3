import { transformPath } from "../../../contracts/transform/path.ts";
import { canonicalOf, specOf, type Transform } from "./transform-tokens.ts";

export interface ImageUrlConfig {
  /** The API's origin, e.g. `https://api.pixelpress.dev`. */
  baseUrl: string;
  /** The public id of an active API key (never the secret key): it names the account. */
  keyId: string;
}

/** Writes a URL for one canonical transform; the signing entry point adds `s_` to it. */
export type UrlWriter = (fileId: string, canonical: string) => string;

export function absoluteTransformUrl(config: ImageUrlConfig, fileId: string, segment: string): string {
  const path = transformPath(encodeURIComponent(config.keyId), segment, encodeURIComponent(fileId));
  return `${config.baseUrl.replace(/\/+$/, "")}${path}`;
}

export function unsignedWriter(config: ImageUrlConfig): UrlWriter {
  return (fileId, canonical) => absoluteTransformUrl(config, fileId, canonical);
}

/** The URL of one derivative, its tokens in the edge's canonical order. */
export function transformUrl(config: ImageUrlConfig, fileId: string, transform: Transform): string {
  return unsignedWriter(config)(fileId, canonicalOf(specOf(transform)));
}
