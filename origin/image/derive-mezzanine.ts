// A mezzanine for the edge: the original made upright, in sRGB (the one colour rule, to-srgb.ts),
// downscaled to the edge's source budget and encoded so the edge's decoders read it without loss
// that shows.
//
// Encoding, measured on a 1224x816 downscale of a photo (Landscape_1.jpg): PNG 2.56 MB, WebP q92
// 311 KB, JPEG q92 4:4:4 327 KB. JPEG at 4:4:4 keeps full chroma (lossy WebP is always 4:2:0,
// which a 4:2:0 derivative would subsample a second time), is as small as WebP, and mozjpeg's
// decoder is the edge's cheapest (a fresh instance per call, freed after). PNG, lossless, for
// alpha and for lossless sources (PNG, GIF: usually flat graphics, where JPEG rings at edges); its
// decoder instance persists in the isolate, and the edge budget test covers it at 1 MP.
import sharp from "sharp";
import { mezzanineSize, type OriginMezzanineMeta } from "../../contracts/origin/image-mezzanine.ts";
import { autoOrient } from "./auto-orient.ts";
import { decodeFailure } from "./decode-limits.ts";
import { runSteps, type ImageStep } from "./image-step.ts";
import { openOriginal } from "./open-original.ts";
import { resize } from "./resize.ts";
import { toSrgb } from "./to-srgb.ts";

export const MEZZANINE_JPEG_QUALITY = 92;

export interface Mezzanine extends OriginMezzanineMeta {
  bytes: Uint8Array;
}

export const MEZZANINE_STEPS: readonly ImageStep[] = [
  autoOrient(true),
  toSrgb,
  resize((upright) => ({ kind: "scale", size: mezzanineSize(upright) }), null),
];

export async function deriveMezzanine(original: Uint8Array): Promise<Mezzanine> {
  const { input, source } = await openOriginal(original);
  const lossless = source.has_alpha || source.format === "png" || source.format === "gif";
  try {
    const { image, upright } = await runSteps(input, source, MEZZANINE_STEPS);
    if (lossless) image.png({ compressionLevel: 6 });
    else image.jpeg({ quality: MEZZANINE_JPEG_QUALITY, chromaSubsampling: "4:4:4", optimiseCoding: true });
    const bytes = new Uint8Array(await image.toBuffer());
    const { width, height } = await sharp(bytes).metadata();
    return {
      bytes,
      format: lossless ? "png" : "jpeg",
      width,
      height,
      original: { ...upright, format: source.format, hasAlpha: source.has_alpha },
    };
  } catch (error) {
    throw decodeFailure(error);
  }
}
