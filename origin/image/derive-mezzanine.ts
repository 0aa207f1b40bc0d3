// A mezzanine for the edge: the original made upright (EXIF orientation applied), converted to
// sRGB (CMYK through sharp's CMYK profile, wide gamut through its embedded profile), downscaled
// to the edge's source budget and encoded so the edge's decoders read it without loss that shows.
//
// Encoding, measured on a 1224x816 downscale of a photo (Landscape_1.jpg): PNG 2.56 MB, WebP q92
// 311 KB, JPEG q92 4:4:4 327 KB. JPEG at 4:4:4 keeps full chroma (lossy WebP is always 4:2:0,
// which a 4:2:0 derivative would subsample a second time), is as small as WebP, and mozjpeg's
// decoder is the edge's cheapest (a fresh instance per call, freed after). PNG, lossless, for
// alpha and for lossless sources (PNG, GIF: usually flat graphics, where JPEG rings at edges); its
// decoder instance persists in the isolate, and the edge budget test covers it at 1 MP.
import sharp from "sharp";
import { mezzanineSize, type OriginMezzanineMeta } from "../../contracts/origin/image-mezzanine.ts";
import { decodeFailure, inspectSource, openSource } from "./decode-limits.ts";

export const MEZZANINE_JPEG_QUALITY = 92;

export interface Mezzanine extends OriginMezzanineMeta {
  bytes: Uint8Array;
}

export async function deriveMezzanine(input: Uint8Array): Promise<Mezzanine> {
  const source = await inspectSource(input);
  const swapsAxes = source.orientation !== null && source.orientation >= 5;
  const upright = swapsAxes ? { width: source.height, height: source.width } : { width: source.width, height: source.height };
  const size = mezzanineSize(upright);
  const lossless = source.has_alpha || source.format === "png" || source.format === "gif";
  const image = openSource(input).autoOrient().resize(size.width, size.height, { fit: "fill" }).toColourspace("srgb");
  if (lossless) image.png({ compressionLevel: 6 });
  else image.jpeg({ quality: MEZZANINE_JPEG_QUALITY, chromaSubsampling: "4:4:4", optimiseCoding: true });
  try {
    const bytes = new Uint8Array(await image.toBuffer());
    const { width, height } = await sharp(bytes).metadata();
    return {
      bytes,
      format: lossless ? "png" : "jpeg",
      width: width!,
      height: height!,
      original: { ...upright, format: source.format, hasAlpha: source.has_alpha },
    };
  } catch (error) {
    throw decodeFailure(error);
  }
}
