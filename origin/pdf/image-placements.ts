// Where each image object is drawn: runs every page through a recording device
// and matches drawn images to PDF objects by their fz_image pointer, which is the
// cached image that doc.loadImage returns for the same object.
import * as mupdf from "mupdf";

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

interface Accumulator {
  pages: Set<number>;
  minDpi: number;
  placedWidthPt: number;
  placedHeightPt: number;
  placements: number;
}

const POINTS_PER_INCH = 72;
const MIN_SCALE_PT = 1e-3;

export function measurePlacements(doc: mupdf.PDFDocument, objectNumbers: Iterable<number>): Map<number, ImagePlacementSummary> {
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
  const record = (image: mupdf.Image, ctm: mupdf.Matrix, pageNumber: number) => {
    const objectNumber = byPointer.get(image.pointer);
    const widthPt = Math.hypot(ctm[0], ctm[1]);
    const heightPt = Math.hypot(ctm[2], ctm[3]);
    if (objectNumber !== undefined && widthPt > MIN_SCALE_PT && heightPt > MIN_SCALE_PT) {
      const dpi = Math.min(image.getWidth() / (widthPt / POINTS_PER_INCH), image.getHeight() / (heightPt / POINTS_PER_INCH));
      const entry = found.get(objectNumber) ?? { pages: new Set<number>(), minDpi: Number.POSITIVE_INFINITY, placedWidthPt: 0, placedHeightPt: 0, placements: 0 };
      entry.pages.add(pageNumber);
      entry.placements++;
      if (dpi < entry.minDpi) Object.assign(entry, { minDpi: dpi, placedWidthPt: widthPt, placedHeightPt: heightPt });
      found.set(objectNumber, entry);
    }
    image.destroy();
  };
  try {
    const pageCount = doc.countPages();
    for (let index = 0; index < pageCount; index++) {
      const page = doc.loadPage(index);
      const device = new mupdf.Device({
        fillImage: (image, ctm) => record(image, ctm, index + 1),
        fillImageMask: (image, ctm) => record(image, ctm, index + 1),
        clipImageMask: (image, ctm) => record(image, ctm, index + 1),
      });
      try {
        page.run(device, mupdf.Matrix.identity);
        device.close();
      } catch {
        // A page whose content cannot be run draws what it drew up to the error; the rest has no placement.
      } finally {
        device.destroy();
        page.destroy();
      }
    }
  } finally {
    for (const image of loaded) image.destroy();
  }
  const summaries = new Map<number, ImagePlacementSummary>();
  for (const [objectNumber, entry] of found) {
    summaries.set(objectNumber, { ...entry, pages: [...entry.pages].sort((a, b) => a - b) });
  }
  return summaries;
}
