// An image object's pixels at the size compress writes it. A plain JPEG (DCTDecode alone, 8-bit
// gray or RGB, no Decode array or decode parameters, no embedded ICC profile) is decoded by
// sharp's libjpeg-turbo, which, when the image is shrunk anyway, decodes at 1/2, 1/4 or 1/8 scale
// in the DCT domain (shrink-on-load) before the Lanczos resample: issue13931's 2996 x 4256 photo,
// written at 946 x 1343, took 1306 ms through mupdf's WASM decoder and 141 ms this way, and a
// 300 dpi page scan kept at its size decodes faster natively too. Everything else (JPX, CCITT,
// Flate, Indexed, CMYK, a Decode array, a soft mask with /Matte, a JPEG whose header disagrees
// with its dictionary, one libjpeg warns about) goes through mupdf, which applies the dictionary
// and tolerates damage, and is resampled after.
import type * as mupdf from "mupdf";
import sharp from "sharp";
import type { ImageFacts } from "./image-facts.ts";
import { rawStreamBytes } from "./pdf-objects.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import type { PixelChannels, RawPixels } from "./raw-pixels.ts";
import { resamplePixels } from "./resample-pixels.ts";

function componentsOf(image: ImageFacts): number {
  const { family, components } = image.colorSpace;
  if (family === "DeviceGray" || family === "DeviceRGB" || family === "ICCBased") return components;
  return 0;
}

/** The channels a plain JPEG decodes to, as mupdf would read it; null when mupdf must decode it. */
function plainJpegChannels(doc: mupdf.PDFDocument, image: ImageFacts, grayscale: boolean): PixelChannels | null {
  if (image.filters.length !== 1 || image.filters[0] !== "DCTDecode" || image.bitsPerComponent !== 8) return null;
  const components = componentsOf(image);
  if (components !== 1 && components !== 3) return null;
  // mupdf's gray conversion of a colour image is its own; keep it.
  if (grayscale && components !== 1) return null;
  // Colours stored pre-blended with a soft mask's /Matte: mupdf un-blends them, and compress
  // writes what mupdf gives.
  if (image.softMaskMatte) return null;
  const dict = doc.newIndirect(image.objectNumber);
  try {
    if (!dict.get("Decode").isNull() || !dict.get("DecodeParms").isNull()) return null;
  } finally {
    dict.destroy();
  }
  return components;
}

async function decodeJpeg(jpeg: Uint8Array, image: ImageFacts, channels: PixelChannels, width: number, height: number): Promise<RawPixels | null> {
  // failOn "warning": a truncated or damaged JPEG goes to mupdf, which decodes what it can.
  const input = () => sharp(jpeg, { failOn: "warning" });
  const header = await input().metadata();
  if (header.format !== "jpeg" || header.width !== image.width || header.height !== image.height || header.channels !== channels || header.hasProfile === true) return null;
  const decoded = input().toColourspace(channels === 1 ? "b-w" : "srgb");
  const sized = width === image.width && height === image.height ? decoded : decoded.resize(width, height, { fit: "fill", kernel: "lanczos3", fastShrinkOnLoad: false });
  const { data, info } = await sized.raw().toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height || info.channels !== channels) return null;
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height, channels };
}

/** The pixels of `image` at width x height, gray when `grayscale`. Throws when neither decoder can read it. */
export async function sizedImagePixels(doc: mupdf.PDFDocument, image: ImageFacts, width: number, height: number, grayscale: boolean): Promise<RawPixels> {
  const channels = plainJpegChannels(doc, image, grayscale);
  if (channels !== null) {
    const decoded = await decodeJpeg(rawStreamBytes(doc, image.objectNumber), image, channels, width, height).catch(() => null);
    if (decoded !== null) return decoded;
  }
  return resamplePixels(decodeImagePixels(doc, image.objectNumber, grayscale), width, height);
}
