// Picks the encoding for rewritten pixels: lossy inputs and photos go to JPEG,
// flat graphics stay lossless, line art gets whichever of the two is smaller.
// Compress encodes by it (rewrite-images.ts); analyze's projection sizes the same choice.
import { classifyPixels } from "./classify-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";

export type EncodingChoice = "jpeg" | "flate" | "smaller";

export function chooseEncoding(pixels: RawPixels, lossyInput: boolean): EncodingChoice {
  if (lossyInput) return "jpeg";
  const content = classifyPixels(pixels);
  return content === "flat" ? "flate" : content === "photo" ? "jpeg" : "smaller";
}
