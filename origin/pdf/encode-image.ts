// Picks the encoding for rewritten pixels: lossy inputs and photos go to JPEG,
// flat graphics stay lossless, line art gets whichever of the two is smaller.
// Compress encodes with it; analyze's projection sizes the same choice.
import { classifyPixels } from "./classify-pixels.ts";
import { encodeFlate, encodeJpeg } from "./encode-pixels.ts";
import type { EncodedStream } from "./encode-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";

export type EncodingChoice = "jpeg" | "flate" | "smaller";

export function chooseEncoding(pixels: RawPixels, lossyInput: boolean): EncodingChoice {
  if (lossyInput) return "jpeg";
  const content = classifyPixels(pixels);
  return content === "flat" ? "flate" : content === "photo" ? "jpeg" : "smaller";
}

export async function encodeImagePixels(pixels: RawPixels, lossyInput: boolean, quality: number): Promise<EncodedStream> {
  const choice = chooseEncoding(pixels, lossyInput);
  if (choice === "flate") return encodeFlate(pixels);
  if (choice === "jpeg") return encodeJpeg(pixels, quality);
  const [flate, jpeg] = await Promise.all([encodeFlate(pixels), encodeJpeg(pixels, quality)]);
  return flate.bytes.byteLength <= jpeg.bytes.byteLength ? flate : jpeg;
}
