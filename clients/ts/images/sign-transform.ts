// Signed transform URLs, for accounts that require them. The signing secret must stay on the
// server: this module is reached only through clients/ts/server.ts, never through index.ts.
import { transformPath } from "../../../contracts/transform/path.ts";
import { transformSignature } from "../../../contracts/transform/signature.ts";
import { canonicalsOf, planImg, planPicture, writeImg, writePicture, type ImgAttributes, type ImgOptions, type PictureAttributes, type PictureOptions } from "./img-attributes.ts";
import { srcsetCandidates, writeSrcset, type SrcsetOptions } from "./srcset.ts";
import { canonicalOf, specOf, type Transform } from "./transform-tokens.ts";
import { sourceSegment } from "./image-source.ts";
import { absoluteTransformUrl, type ImageUrlConfig, type UrlWriter } from "./transform-url.ts";

export interface SignedImageUrlConfig extends ImageUrlConfig {
  /** The key's signing secret (POST /v1/keys/{key_id}/signing-secret). Server-side only. */
  signingSecret: string;
}

export interface SignedImageUrls {
  transformUrl(src: string, transform: Transform): Promise<string>;
  srcset(src: string, options: SrcsetOptions): Promise<string>;
  imgAttributes(src: string, options: ImgOptions): Promise<ImgAttributes>;
  picture(src: string, options: PictureOptions): Promise<PictureAttributes>;
}

// WebCrypto signs asynchronously, so every planned URL is signed first and written after.
async function signedWriter(config: SignedImageUrlConfig, src: string, canonicals: string[]): Promise<UrlWriter> {
  const signatures = new Map<string, string>();
  for (const canonical of new Set(canonicals)) {
    signatures.set(canonical, await transformSignature(config.signingSecret, transformPath(config.keyId, canonical, sourceSegment(config, src))));
  }
  return (image, canonical) => absoluteTransformUrl(config, image, `${canonical},s_${signatures.get(canonical)}`);
}

export function createSignedImageUrls(config: SignedImageUrlConfig): SignedImageUrls {
  return {
    async transformUrl(src, transform) {
      const canonical = canonicalOf(specOf(transform));
      return (await signedWriter(config, src, [canonical]))(src, canonical);
    },
    async srcset(src, options) {
      const candidates = srcsetCandidates(options);
      return writeSrcset(src, candidates, await signedWriter(config, src, candidates.map((candidate) => candidate.canonical)));
    },
    async imgAttributes(src, options) {
      const plan = planImg(src, options);
      return writeImg(plan, await signedWriter(config, src, canonicalsOf(plan)));
    },
    async picture(src, options) {
      const plan = planPicture(src, options);
      return writePicture(plan, await signedWriter(config, src, canonicalsOf(plan)));
    },
  };
}
