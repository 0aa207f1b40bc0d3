// The step before every image pipeline: sharp reads JPEG, PNG, WebP, AVIF, GIF and TIFF itself;
// HEIC, JPEG XL and SVG are turned into a lossless PNG here first (an SVG at the asked size, larger
// under a trim: drawn-for-trim.ts), as are a PDF's page and a TIFF's page other than the first
// (page.ts), and the pipeline is told what the original was, so its output format and stats
// follow that.
import type { Size } from "../../../contracts/image-orientation.ts";
import { sniffContentType } from "../../../contracts/sniff.ts";
import { drawnForTrim } from "./drawn-for-trim.ts";
import { heicToPng } from "./heic.ts";
import { jxlToPng } from "./jxl.ts";
import { checkSinglePage, pageRequired, pdfPageToPng, tiffPageToPng } from "./page.ts";
import type { RasterTarget } from "./raster-target.ts";
import { svgToPng } from "./svg.ts";

export type ForeignFormat = "heic" | "jxl" | "svg" | "pdf" | "tiff";

export interface ReadableSource {
  /** Bytes sharp reads. */
  bytes: Uint8Array;
  /** The original's format when it was converted, null when `bytes` are the original. */
  foreign: ForeignFormat | null;
  /** The picture's upright size when `bytes` hold it at half that size (a HEIC, heic-native.ts); null otherwise. */
  halvedFrom: Size | null;
}

/** `page` (from 1): the page of a PDF (required) or TIFF to read; any other source has page 1 only. */
export async function readableSource(input: Uint8Array, target: RasterTarget, maxPixels: number, page?: number): Promise<ReadableSource> {
  const format = sniffContentType(input)?.format;
  if (format === "pdf") {
    if (page === undefined) throw pageRequired();
    return { bytes: await drawnForTrim(target, (box) => pdfPageToPng(input, page, box, maxPixels)), foreign: format, halvedFrom: null };
  }
  if (format === "tiff" && page !== undefined && page > 1) return { bytes: await tiffPageToPng(input, page, maxPixels), foreign: format, halvedFrom: null };
  if (page !== undefined && format !== "tiff") checkSinglePage(page);
  switch (format) {
    case "heic": {
      const { png, halvedFrom } = await heicToPng(input, maxPixels, target);
      return { bytes: png, foreign: format, halvedFrom };
    }
    case "jxl":
      return { bytes: await jxlToPng(input, maxPixels), foreign: format, halvedFrom: null };
    case "svg":
      return { bytes: await drawnForTrim(target, (box) => svgToPng(input, box, maxPixels)), foreign: format, halvedFrom: null };
    default:
      return { bytes: input, foreign: null, halvedFrom: null };
  }
}
