// The browser-safe entry: unsigned transform URLs, srcset and <img>/<picture> attributes for the
// files of the account that `keyId` names. Signing lives in ../server.ts, never imported here.
import { planImg, planPicture, writeImg, writePicture, type ImgAttributes, type ImgOptions, type PictureAttributes, type PictureOptions } from "./img-attributes.ts";
import { srcsetCandidates, writeSrcset, type SrcsetOptions } from "./srcset.ts";
import type { Transform } from "./transform-tokens.ts";
import { transformUrl, unsignedWriter, type ImageUrlConfig } from "./transform-url.ts";

export interface ImageUrls {
  /** One derivative's URL, tokens in the edge's canonical order. */
  transformUrl(fileId: string, transform: Transform): string;
  srcset(fileId: string, options: SrcsetOptions): string;
  imgAttributes(fileId: string, options: ImgOptions): ImgAttributes;
  picture(fileId: string, options: PictureOptions): PictureAttributes;
}

export function createImageUrls(config: ImageUrlConfig): ImageUrls {
  const write = unsignedWriter(config);
  return {
    transformUrl: (fileId, transform) => transformUrl(config, fileId, transform),
    srcset: (fileId, options) => writeSrcset(fileId, srcsetCandidates(options), write),
    imgAttributes: (fileId, options) => writeImg(planImg(fileId, options), write),
    picture: (fileId, options) => writePicture(planPicture(fileId, options), write),
  };
}
