// Where each image object is drawn: runs pages through a recording device and matches drawn
// images to PDF objects by their fz_image pointer, which is the cached image that doc.loadImage
// returns for the same object. Pages that draw the same thing (the same content streams,
// resources and annotations) are run once: a file of 20,000 pages sharing one content stream
// costs one run, not 20,000.
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
}

export interface PlacementMeasure {
  byImage: Map<number, ImagePlacementSummary>;
  /** Pages actually run through the device: one per distinct drawing, not one per page. */
  pagesRun: number;
}

/** What one run of a page found for one image: its largest placement and how often it is drawn. */
interface PageDraws {
  minDpi: number;
  placedWidthPt: number;
  placedHeightPt: number;
  placements: number;
}

interface Accumulator extends PageDraws {
  pages: number[];
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

function runPage(doc: mupdf.PDFDocument, index: number, byPointer: Map<number, number>): Map<number, PageDraws> {
  const draws = new Map<number, PageDraws>();
  const record = (image: mupdf.Image, ctm: mupdf.Matrix) => {
    const objectNumber = byPointer.get(image.pointer);
    const widthPt = Math.hypot(ctm[0], ctm[1]);
    const heightPt = Math.hypot(ctm[2], ctm[3]);
    if (objectNumber !== undefined && widthPt > MIN_SCALE_PT && heightPt > MIN_SCALE_PT) {
      const dpi = Math.min(image.getWidth() / (widthPt / POINTS_PER_INCH), image.getHeight() / (heightPt / POINTS_PER_INCH));
      const entry = draws.get(objectNumber) ?? { minDpi: Number.POSITIVE_INFINITY, placedWidthPt: 0, placedHeightPt: 0, placements: 0 };
      entry.placements++;
      if (dpi < entry.minDpi) Object.assign(entry, { minDpi: dpi, placedWidthPt: widthPt, placedHeightPt: heightPt });
      draws.set(objectNumber, entry);
    }
    image.destroy();
  };
  const page = doc.loadPage(index);
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

export function measurePlacements(doc: mupdf.PDFDocument, objectNumbers: Iterable<number>): PlacementMeasure {
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
  try {
    for (const [index, pageObject] of pageObjects(doc).entries()) {
      const key = drawingKey(pageObject);
      let draws = drawsByKey.get(key);
      if (draws === undefined) {
        draws = runPage(doc, index, byPointer);
        drawsByKey.set(key, draws);
      }
      for (const [objectNumber, draw] of draws) {
        const entry = found.get(objectNumber) ?? { pages: [], minDpi: Number.POSITIVE_INFINITY, placedWidthPt: 0, placedHeightPt: 0, placements: 0 };
        // Pages are visited in order, so the list stays ascending without a sort.
        entry.pages.push(index + 1);
        entry.placements += draw.placements;
        if (draw.minDpi < entry.minDpi) Object.assign(entry, { minDpi: draw.minDpi, placedWidthPt: draw.placedWidthPt, placedHeightPt: draw.placedHeightPt });
        found.set(objectNumber, entry);
      }
    }
  } finally {
    for (const image of loaded) image.destroy();
  }
  return { byImage: found, pagesRun: drawsByKey.size };
}
