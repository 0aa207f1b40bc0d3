// Encoders for rewritten image streams. JPEG is always baseline: progressive DCT
// is not valid in many PDF consumers, and sharp's `mozjpeg: true` preset forces it
// on even next to `progressive: false`, so MozJPEG's tools are named one by one.
// One-channel input is kept gray: sharp would otherwise widen it to sRGB.
import sharp from "sharp";
import { cmykTiff } from "./cmyk-tiff.ts";
import type { RawPixels } from "./raw-pixels.ts";

export interface EncodedStream {
  filter: "DCTDecode" | "FlateDecode";
  bytes: Uint8Array;
  /** Flate streams hold PNG-filtered rows: /DecodeParms << /Predictor 15 ... >>. */
  pngPredictor: boolean;
  /** Adobe-style CMYK JPEG with inverted samples, read in PDF through /Decode [1 0 1 0 1 0 1 0]. */
  invertedCmyk: boolean;
}

const MOZJPEG_DEFAULT_QUANT_TABLE = 3;

/** sharp over raw samples; four channels are CMYK here and pass through untouched as "RGBA". */
export function rawInput(pixels: RawPixels): ReturnType<typeof sharp> {
  const { data, width, height, channels } = pixels;
  const image = sharp(data, { raw: { width, height, channels } });
  return channels === 1 ? image.toColourspace("b-w") : image;
}

function asUint8(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

const BASELINE_MOZJPEG = {
  progressive: false,
  optimiseScans: false,
  optimiseCoding: true,
  trellisQuantisation: true,
  overshootDeringing: true,
  quantisationTable: MOZJPEG_DEFAULT_QUANT_TABLE,
} as const;

/**
 * MozJPEG through sharp. CMYK goes in as a TIFF and stays in a CMYK pipeline;
 * libjpeg then stores it inverted with an Adobe marker, as Photoshop does.
 */
export async function encodeJpeg(pixels: RawPixels, quality: number): Promise<EncodedStream> {
  if (pixels.channels === 4) {
    const jpeg = await sharp(cmykTiff(pixels)).pipelineColourspace("cmyk").toColourspace("cmyk").jpeg({ quality, ...BASELINE_MOZJPEG }).toBuffer();
    return { filter: "DCTDecode", bytes: asUint8(jpeg), pngPredictor: false, invertedCmyk: true };
  }
  const jpeg = await rawInput(pixels)
    .jpeg({
      quality,
      ...BASELINE_MOZJPEG,
      chromaSubsampling: "4:2:0",
    })
    .toBuffer();
  return { filter: "DCTDecode", bytes: asUint8(jpeg), pngPredictor: false, invertedCmyk: false };
}

/**
 * Deflate with PNG row filters: sharp writes a PNG and its IDAT payload is exactly
 * a zlib stream of filtered rows, which PDF reads as FlateDecode with Predictor 15.
 */
export async function encodeFlate(pixels: RawPixels): Promise<EncodedStream> {
  const png = await rawInput(pixels)
    .png({ compressionLevel: 9, adaptiveFiltering: true, palette: false })
    .toBuffer();
  return { filter: "FlateDecode", bytes: idatPayload(asUint8(png)), pngPredictor: true, invertedCmyk: false };
}

const PNG_SIGNATURE_BYTES = 8;

function idatPayload(png: Uint8Array): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [];
  let offset = PNG_SIGNATURE_BYTES;
  while (offset + 8 <= png.byteLength) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    if (type === "IDAT") parts.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
