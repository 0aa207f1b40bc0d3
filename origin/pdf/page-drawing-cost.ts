// What drawing a page will cost, measured before it is drawn: the page is run through a device
// that draws nothing and adds up the pixels each operation would cover at the asked scale
// (contracts/limits/drawing.ts). Running the content is linear in its operators and touches no
// pixel; it happens in the same worker thread as the drawing, so the deadline bounds it too.
import * as mupdf from "mupdf";
import { PDF_PAGE_DRAWING_BUDGET, PDF_PAGE_GROUP_COST_FACTOR } from "../../contracts/limits/drawing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";

type Box = readonly number[];

/** Pixels of `box` inside the raster: an operation never costs more than the page it is drawn on. */
function coveredPixels(box: Box, raster: { width: number; height: number }): number {
  const width = Math.min(raster.width, box[2]!) - Math.max(0, box[0]!);
  const height = Math.min(raster.height, box[3]!) - Math.max(0, box[1]!);
  return width > 0 && height > 0 ? width * height : 0;
}

// Fills are bounded without a stroke: mupdf takes none for them, while its types ask for one.
const NO_STROKE = null as unknown as mupdf.StrokeState;
const UNIT_SQUARE: mupdf.Rect = [0, 0, 1, 1];

export function pageDrawingCost(page: mupdf.Page, matrix: mupdf.Matrix, raster: { width: number; height: number }): number {
  let cost = 0;
  const paint = (box: Box, factor = 1) => (cost += factor * coveredPixels(box, raster));
  const whole = [0, 0, raster.width, raster.height];
  const device = new mupdf.Device({
    fillPath: (path, _evenOdd, ctm) => paint(path.getBounds(NO_STROKE, ctm)),
    strokePath: (path, stroke, ctm) => paint(path.getBounds(stroke, ctm)),
    clipPath: (path, _evenOdd, ctm) => paint(path.getBounds(NO_STROKE, ctm)),
    clipStrokePath: (path, stroke, ctm) => paint(path.getBounds(stroke, ctm)),
    fillText: (text, ctm) => paint(text.getBounds(NO_STROKE, ctm)),
    strokeText: (text, stroke, ctm) => paint(text.getBounds(stroke, ctm)),
    clipText: (text, ctm) => paint(text.getBounds(NO_STROKE, ctm)),
    clipStrokeText: (text, stroke, ctm) => paint(text.getBounds(stroke, ctm)),
    fillShade: () => paint(whole),
    fillImage: (_image, ctm) => paint(mupdf.Rect.transform(UNIT_SQUARE, ctm)),
    fillImageMask: (_image, ctm) => paint(mupdf.Rect.transform(UNIT_SQUARE, ctm)),
    clipImageMask: (_image, ctm) => paint(mupdf.Rect.transform(UNIT_SQUARE, ctm)),
    beginMask: (box) => paint(box, PDF_PAGE_GROUP_COST_FACTOR),
    beginGroup: (box) => paint(box, PDF_PAGE_GROUP_COST_FACTOR),
  });
  try {
    page.run(device, matrix);
    device.close();
  } finally {
    device.destroy();
  }
  return Math.round(cost);
}

export function checkPageDrawingCost(cost: number, pageNumber: number): void {
  if (cost <= PDF_PAGE_DRAWING_BUDGET) return;
  throw new ProblemError(
    "drawing_too_complex",
    `Page ${pageNumber} would paint ${cost} weighted pixels at the asked size (blended and masked areas count ${PDF_PAGE_GROUP_COST_FACTOR} times); the limit is ${PDF_PAGE_DRAWING_BUDGET}. Ask a smaller size. Not charged.`,
    { extensions: { estimated_cost: cost, limit: PDF_PAGE_DRAWING_BUDGET } },
  );
}
