// One page of a PDF drawn as a PNG, on white at the asked size (150 dpi when none is asked). It
// runs in a PDF worker thread (pdf-jobs.ts), where the call's deadline terminates it: MuPDF
// cannot be interrupted, and a page's drawing time is not bounded by its bytes. Its cost is
// measured first (page-drawing-cost.ts) and a page over the budget is refused undrawn. Pages
// count from 1; a page past the last is page_out_of_range.
import * as mupdf from "mupdf";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { PDF_PAGE_DPI } from "../../contracts/transform/token-values.ts";
import { isDocumentProblem } from "./document-problem.ts";
import { openPdf } from "./open-pdf.ts";
import { pageOutOfRange } from "./page-out-of-range.ts";
import { checkPageDrawingCost, pageDrawingCost } from "./page-drawing-cost.ts";

// librsvg's and libvips' practical side limit, as for SVG.
const MAX_SIDE = 16_384;
const POINTS_PER_INCH = 72;

export interface PageRequest {
  page: number;
  /** The box the output is asked to fill, in pixels. */
  target: { width?: number; height?: number };
  maxPixels: number;
}

export interface DrawnPage {
  /** A lossless PNG of the page. */
  bytes: Uint8Array;
}

/** The scale from points to pixels: the asked box filled (the pipeline then fits it), within the pixel and side limits. */
function pageScale(points: { width: number; height: number }, request: PageRequest): number {
  const { target, maxPixels } = request;
  const asked = Math.max(target.width ? target.width / points.width : 0, target.height ? target.height / points.height : 0);
  const fitsPixels = Math.sqrt(maxPixels / (points.width * points.height));
  const fitsSide = MAX_SIDE / Math.max(points.width, points.height);
  return Math.min(asked > 0 ? asked : PDF_PAGE_DPI / POINTS_PER_INCH, fitsPixels, fitsSide);
}

function drawLoaded(loaded: mupdf.Page, request: PageRequest): Uint8Array {
  const [x0, y0, x1, y1] = loaded.getBounds();
  const points = { width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
  const scale = pageScale(points, request);
  const matrix = mupdf.Matrix.concat(mupdf.Matrix.translate(-x0, -y0), mupdf.Matrix.scale(scale, scale));
  const raster = { width: Math.ceil(points.width * scale), height: Math.ceil(points.height * scale) };
  checkPageDrawingCost(pageDrawingCost(loaded, matrix, raster), request.page);
  // No alpha channel: the page is drawn on white, as a viewer shows it.
  const pixmap = loaded.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
  try {
    return pixmap.asPNG().slice();
  } finally {
    pixmap.destroy();
  }
}

export function drawPdfPage(input: Uint8Array, request: PageRequest): DrawnPage {
  const { doc } = openPdf(input, null);
  try {
    const pages = doc.countPages();
    if (request.page > pages) throw pageOutOfRange(request.page, pages);
    // Loading a page walks the page tree, which a damaged file can loop or break: that is the
    // file's problem, answered as analyze answers it.
    let loaded: mupdf.Page | undefined;
    try {
      loaded = doc.loadPage(request.page - 1);
      return { bytes: drawLoaded(loaded, request) };
    } catch (error) {
      if (error instanceof ProblemError || !isDocumentProblem(error)) throw error;
      throw new ProblemError("pdf_unreadable", `Page ${request.page} could not be drawn: ${String(error)}`);
    } finally {
      loaded?.destroy();
    }
  } finally {
    doc.destroy();
  }
}
