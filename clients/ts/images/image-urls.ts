// The browser-safe entry: unsigned transform URLs, srcset and <img>/<picture> attributes for the
// files and origin paths of the account that `keyId` names (a src is a file id, a path under `defaultOrigin`, or a URL under one of `origins`). Signing lives in ../server.ts, never imported here.
import { planImg, planPicture, writeImg, writePicture, type ImgAttributes, type ImgOptions, type PictureAttributes, type PictureOptions } from "./img-attributes.ts";
import { srcsetCandidates, writeSrcset, type SrcsetOptions } from "./srcset.ts";
import type { Transform } from "./transform-tokens.ts";
import { transformUrl, unsignedWriter, type ImageUrlConfig } from "./transform-url.ts";

export interface ImageUrls {
  /** One derivative's URL, tokens in the edge's canonical order. */
  transformUrl(src: string, transform: Transform): string;
  srcset(src: string, options: SrcsetOptions): string;
  imgAttributes(src: string, options: ImgOptions): ImgAttributes;
  picture(src: string, options: PictureOptions): PictureAttributes;
}

export function createImageUrls(config: ImageUrlConfig): ImageUrls {
  const write = unsignedWriter(config);
  return {
    transformUrl: (src, transform) => transformUrl(config, src, transform),
    srcset: (src, options) => writeSrcset(src, srcsetCandidates(options), write),
    imgAttributes: (src, options) => writeImg(planImg(src, options), write),
    picture: (src, options) => writePicture(planPicture(src, options), write),
  };
}
