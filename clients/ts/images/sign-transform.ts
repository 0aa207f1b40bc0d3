// Signed transform URLs, for accounts that require them. The signing secret must stay on the
// server: this module is reached only through clients/ts/server.ts, never through index.ts.
import { transformPath } from "../../../contracts/transform/path.ts";
import { transformSignature } from "../../../contracts/transform/signature.ts";
import { canonicalsOf, planImg, planPicture, writeImg, writePicture, type ImgAttributes, type ImgOptions, type PictureAttributes, type PictureOptions } from "./img-attributes.ts";
import { srcsetCandidates, writeSrcset, type SrcsetOptions } from "./srcset.ts";
import { canonicalOf, specOf, type Transform } from "./transform-tokens.ts";
import { absoluteTransformUrl, type ImageUrlConfig, type UrlWriter } from "./transform-url.ts";

export interface SignedImageUrlConfig extends ImageUrlConfig {
  /** The key's signing secret (POST /v1/keys/{key_id}/signing-secret). Server-side only. */
  signingSecret: string;
}

export interface SignedImageUrls {
  transformUrl(fileId: string, transform: Transform): Promise<string>;
  srcset(fileId: string, options: SrcsetOptions): Promise<string>;
  imgAttributes(fileId: string, options: ImgOptions): Promise<ImgAttributes>;
  picture(fileId: string, options: PictureOptions): Promise<PictureAttributes>;
}

// WebCrypto signs asynchronously, so every planned URL is signed first and written after.
async function signedWriter(config: SignedImageUrlConfig, fileId: string, canonicals: string[]): Promise<UrlWriter> {
  const signatures = new Map<string, string>();
  for (const canonical of new Set(canonicals)) {
    signatures.set(canonical, await transformSignature(config.signingSecret, transformPath(config.keyId, canonical, fileId)));
  }
  return (file, canonical) => absoluteTransformUrl(config, file, `${canonical},s_${signatures.get(canonical)}`);
}

export function createSignedImageUrls(config: SignedImageUrlConfig): SignedImageUrls {
  return {
    async transformUrl(fileId, transform) {
      const canonical = canonicalOf(specOf(transform));
      return (await signedWriter(config, fileId, [canonical]))(fileId, canonical);
    },
    async srcset(fileId, options) {
      const candidates = srcsetCandidates(options);
      return writeSrcset(fileId, candidates, await signedWriter(config, fileId, candidates.map((candidate) => candidate.canonical)));
    },
    async imgAttributes(fileId, options) {
      const plan = planImg(fileId, options);
      return writeImg(plan, await signedWriter(config, fileId, canonicalsOf(plan)));
    },
    async picture(fileId, options) {
      const plan = planPicture(fileId, options);
      return writePicture(plan, await signedWriter(config, fileId, canonicalsOf(plan)));
    },
  };
}
