// Where each image object is drawn: runs pages through a recording device and matches drawn
// images to PDF objects by their fz_image pointer, which is the cached image that doc.loadImage
// returns for the same object. Pages that draw the same thing (the same content streams,
// resources and annotations) are run once: a file of 20,000 pages sharing one content stream
// costs one run, not 20,000. On request it also lists where each drawing lands on its page, for
// analyze's picture of the pages.
import * as mupdf from "mupdf";
import { pageObjects } from "./pdf-objects.ts";

export interface ImagePlacementSummary {
  /** 1-based page numbers the image is drawn on, ascending. */
  pages: number[];
  /** Lowest effective resolution over all placements, i.e. at the largest placement. */
  minDpi: number;
  /** Size in points of that largest placement. */
  placedWidthPt: number;
  placedHeightPt: number;
  placements: number;
  /** Where it is drawn, page by page, as many as were asked for across the document. */
  rects: PlacementRect[];
}

/**
 * One drawing's axis-aligned box in points, in the page's space as shown: from the top-left
 * corner of its crop box after /Rotate, y downward, the space a rendering of the page has.
 */
export interface PlacementRect {
  /** 1-based. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  dpi: number;
}

export interface PlacementMeasure {
  byImage: Map<number, ImagePlacementSummary>;
  /** Pages actually run through the device: one per distinct drawing, not one per page. */
  pagesRun: number;
}

/**
 * A drawing in the page's own user space (before the page's transform), so pages that share the
 * drawing but not the media box or rotation each place it where it lands on them.
 */
interface UserSpaceDraw {
  matrix: mupdf.Matrix;
  dpi: number;
}

/** What one run of a page found for one image: its largest placement and how often it is drawn. */
interface PageDraws {
  minDpi: number;
  placedWidthPt: number;
  placedHeightPt: number;
  placements: number;
  draws: UserSpaceDraw[];
}

interface Accumulator extends Omit<PageDraws, "draws"> {
  pages: number[];
  rects: PlacementRect[];
}

const POINTS_PER_INCH = 72;
const MIN_SCALE_PT = 1e-3;

/**
 * Two pages with the same key draw the same images at the same sizes: the content streams and
 * resources are named by reference (or spelled out when direct), the annotations' appearances
 * are drawn too, and UserUnit scales the page. Rotation and the media box only turn and move the
 * drawing, which leaves every placed size as it is.
 */
function drawingKey(page: mupdf.PDFObject): string {
  return [page.get("Contents"), page.getInheritable("Resources"), page.get("Annots"), page.get("UserUnit")].map((part) => part.toString(true)).join("|");
}

/** Runs page `index` once; keeps up to `keepDraws` drawings in user space, for their rectangles. */
function runPage(doc: mupdf.PDFDocument, index: number, byPointer: Map<number, number>, keepDraws: number): Map<number, PageDraws> {
  const draws = new Map<number, PageDraws>();
  const page = doc.loadPage(index);
  const toUserSpace = mupdf.Matrix.invert(page.getTransform());
  let kept = 0;
  const record = (image: mupdf.Image, ctm: mupdf.Matrix) => {
    const objectNumber = byPointer.get(image.pointer);
    const widthPt = Math.hypot(ctm[0], ctm[1]);
    const heightPt = Math.hypot(ctm[2], ctm[3]);
    if (objectNumber !== undefined && widthPt > MIN_SCALE_PT && heightPt > MIN_SCALE_PT) {
      const dpi = Math.min(image.getWidth() / (widthPt / POINTS_PER_INCH), image.getHeight() / (heightPt / POINTS_PER_INCH));
      const entry = draws.get(objectNumber) ?? { minDpi: Number.POSITIVE_INFINITY, placedWidthPt: 0, placedHeightPt: 0, placements: 0, draws: [] };
      entry.placements++;
      if (dpi < entry.minDpi) Object.assign(entry, { minDpi: dpi, placedWidthPt: widthPt, placedHeightPt: heightPt });
      if (kept < keepDraws) {
        entry.draws.push({ matrix: mupdf.Matrix.concat(ctm, toUserSpace), dpi });
        kept++;
      }
      draws.set(objectNumber, entry);
    }
    image.destroy();
  };
  const device = new mupdf.Device({ fillImage: record, fillImageMask: record, clipImageMask: record });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } catch {
    // A page whose content cannot be run draws what it drew up to the error; the rest has no placement.
  } finally {
    device.destroy();
    page.destroy();
  }
  return draws;
}

const UNIT_SQUARE: mupdf.Rect = [0, 0, 1, 1];

/** Where each kept drawing of `draws` lands on page `index`, in the order drawn. */
function* rectsOnPage(doc: mupdf.PDFDocument, index: number, draws: Map<number, PageDraws>): Generator<[number, PlacementRect]> {
  // The page's transform puts the crop box's top-left corner at (0, 0), as a rendering of it does.
  const page = doc.loadPage(index);
  const toPage = page.getTransform();
  page.destroy();
  for (const [objectNumber, draw] of draws) {
    for (const { matrix, dpi } of draw.draws) {
      const [x0, y0, x1, y1] = mupdf.Rect.transform(UNIT_SQUARE, mupdf.Matrix.concat(matrix, toPage));
      yield [objectNumber, { page: index + 1, x: x0, y: y0, width: x1 - x0, height: y1 - y0, dpi }];
    }
  }
}

/** `rects`: how many drawings' rectangles to list across the document, in page order (0 for none). */
export function measurePlacements(doc: mupdf.PDFDocument, objectNumbers: Iterable<number>, rects = 0): PlacementMeasure {
  const loaded: mupdf.Image[] = [];
  const byPointer = new Map<number, number>();
  for (const objectNumber of objectNumbers) {
    try {
      const image = doc.loadImage(doc.newIndirect(objectNumber));
      loaded.push(image);
      byPointer.set(image.pointer, objectNumber);
    } catch {
      // An image mupdf cannot load is never drawn either; it simply has no placement.
    }
  }
  const found = new Map<number, Accumulator>();
  const drawsByKey = new Map<string, Map<number, PageDraws>>();
  let listed = 0;
  try {
    for (const [index, pageObject] of pageObjects(doc).entries()) {
      const key = drawingKey(pageObject);
      let draws = drawsByKey.get(key);
      if (draws === undefined) {
        draws = runPage(doc, index, byPointer, rects);
        drawsByKey.set(key, draws);
      }
      for (const [objectNumber, draw] of draws) {
        const entry = found.get(objectNumber) ?? { pages: [], minDpi: Number.POSITIVE_INFINITY, placedWidthPt: 0, placedHeightPt: 0, placements: 0, rects: [] };
        // Pages are visited in order, so the list stays ascending without a sort.
        entry.pages.push(index + 1);
        entry.placements += draw.placements;
        if (draw.minDpi < entry.minDpi) Object.assign(entry, { minDpi: draw.minDpi, placedWidthPt: draw.placedWidthPt, placedHeightPt: draw.placedHeightPt });
        found.set(objectNumber, entry);
      }
      if (listed < rects && draws.size > 0) {
        for (const [objectNumber, rect] of rectsOnPage(doc, index, draws)) {
          if (listed === rects) break;
          found.get(objectNumber)?.rects.push(rect);
          listed++;
        }
      }
    }
  } finally {
    for (const image of loaded) image.destroy();
  }
  return { byImage: found, pagesRun: drawsByKey.size };
}
