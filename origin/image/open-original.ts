// Every pipeline's first step: the original's bytes made readable by sharp (foreign-source/ turns
// HEIC, JPEG XL and SVG into a PNG) and inspected under the input limits, before a pixel is decoded.
import { sniffContentType } from "../../contracts/sniff.ts";
import { checkSourceBytes, IMAGE_INPUT_LIMITS, inspectSource, type SourceImage } from "./decode-limits.ts";
import { readableSource } from "./foreign-source/readable-source.ts";
import type { RasterTarget } from "./foreign-source/raster-target.ts";

export interface OpenedOriginal {
  /** What sharp decodes: the original, or the PNG it was converted to. */
  input: Uint8Array;
  source: SourceImage;
}

/**
 * `target` is the box the output is asked to fill: an SVG or a PDF page is drawn at that size, not
 * enlarged after. `page` (from 1) is the page of a PDF or TIFF.
 */
export async function openOriginal(original: Uint8Array, target: RasterTarget = {}, page?: number): Promise<OpenedOriginal> {
  checkSourceBytes(original.byteLength, sniffContentType(original)?.format ?? null);
  const readable = await readableSource(original, target, IMAGE_INPUT_LIMITS.max_input_pixels, page);
  const source = await inspectSource(readable.bytes, readable.foreign ? { format: readable.foreign, bytes: original.byteLength, halvedFrom: readable.halvedFrom } : undefined);
  return { input: readable.bytes, source };
}
