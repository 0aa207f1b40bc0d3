// One page of a many-page source as an image (`pg_<n>`, `options.page`): a PDF page drawn by
// MuPDF on white at the asked size (150 dpi when none is asked), a TIFF page read by libvips.
// Pages count from 1; a page past the last is page_out_of_range, before anything is drawn.
import * as mupdf from "mupdf";
import sharp from "sharp";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { PDF_PAGE_DPI } from "../../../contracts/transform/token-values.ts";
import { openPdf } from "../../pdf/open-pdf.ts";
import type { RasterTarget } from "./svg.ts";

// librsvg's and libvips' practical side limit, as for SVG.
const MAX_SIDE = 16_384;
const POINTS_PER_INCH = 72;

function pastTheEnd(page: number, pages: number): ProblemError {
  return new ProblemError("page_out_of_range", `Page ${page} was asked for; the source has ${pages} page${pages === 1 ? "" : "s"}.`, {
    extensions: { page, pages },
  });
}

/** The scale from points to pixels: the asked box filled (the pipeline then fits it), within the pixel and side limits. */
function pageScale(points: { width: number; height: number }, target: RasterTarget, maxPixels: number): number {
  const asked = Math.max(target.width ? target.width / points.width : 0, target.height ? target.height / points.height : 0);
  const fitsPixels = Math.sqrt(maxPixels / (points.width * points.height));
  const fitsSide = MAX_SIDE / Math.max(points.width, points.height);
  return Math.min(asked > 0 ? asked : PDF_PAGE_DPI / POINTS_PER_INCH, fitsPixels, fitsSide);
}

export function pdfPageToPng(bytes: Uint8Array, page: number, target: RasterTarget, maxPixels: number): Uint8Array {
  const { doc } = openPdf(bytes, null);
  try {
    const pages = doc.countPages();
    if (page > pages) throw pastTheEnd(page, pages);
    const loaded = doc.loadPage(page - 1);
    try {
      const [x0, y0, x1, y1] = loaded.getBounds();
      const points = { width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
      const scale = pageScale(points, target, maxPixels);
      // No alpha channel: the page is drawn on white, as a viewer shows it.
      const pixmap = loaded.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
      try {
        return pixmap.asPNG().slice();
      } finally {
        pixmap.destroy();
      }
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      throw new ProblemError("pdf_unreadable", `Page ${page} could not be drawn: ${String(error)}`);
    } finally {
      loaded.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** A TIFF's page as a lossless PNG; the rest of the pipeline reads it like any PNG. */
export async function tiffPageToPng(bytes: Uint8Array, page: number, maxPixels: number): Promise<Uint8Array> {
  const pages = (await sharp(bytes, { limitInputPixels: false }).metadata()).pages ?? 1;
  if (page > pages) throw pastTheEnd(page, pages);
  return sharp(bytes, { page: page - 1, pages: 1, limitInputPixels: maxPixels, failOn: "error" }).png({ compressionLevel: 1 }).toBuffer();
}

/** A source with one page takes only page 1. */
export function checkSinglePage(page: number): void {
  if (page > 1) throw pastTheEnd(page, 1);
}

/** A PDF is an image only one page at a time. */
export function pageRequired(): ProblemError {
  return new ProblemError(
    "unsupported_media_type",
    "this is a PDF document; an image is made of one of its pages: give `page` (options.page on /v1/image endpoints, pg_<n> in a transform URL)",
    { extensions: { detected_type: "application/pdf", expected_kind: "image", missing: "page" } },
  );
}
