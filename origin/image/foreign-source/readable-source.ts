// The step before every image pipeline: sharp reads JPEG, PNG, WebP, AVIF, GIF and TIFF itself;
// HEIC, JPEG XL and SVG are turned into a lossless PNG here first (at the asked size, for SVG),
// and the pipeline is told what the original was, so its output format and stats follow that.
import { sniffContentType } from "../../../contracts/sniff.ts";
import { heicToPng } from "./heic.ts";
import { jxlToPng } from "./jxl.ts";
import { svgToPng, type RasterTarget } from "./svg.ts";

export type ForeignFormat = "heic" | "jxl" | "svg";

export interface ReadableSource {
  /** Bytes sharp reads. */
  bytes: Uint8Array;
  /** The original's format when it was converted, null when `bytes` are the original. */
  foreign: ForeignFormat | null;
}

export async function readableSource(input: Uint8Array, target: RasterTarget, maxPixels: number): Promise<ReadableSource> {
  const format = sniffContentType(input)?.format;
  switch (format) {
    case "heic":
      return { bytes: await heicToPng(input, maxPixels), foreign: format };
    case "jxl":
      return { bytes: await jxlToPng(input, maxPixels), foreign: format };
    case "svg":
      return { bytes: await svgToPng(input, target, maxPixels), foreign: format };
    default:
      return { bytes: input, foreign: null };
  }
}
