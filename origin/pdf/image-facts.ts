// Everything the engine knows about one image object before touching it: the
// dictionary facts, where it is drawn, and for JPEGs the quality it was saved at.
import type * as mupdf from "mupdf";
import { estimateJpegQuality } from "./jpeg-quality/estimate-jpeg-quality.ts";
import type { JpegQualityEstimate } from "./jpeg-quality/estimate-jpeg-quality.ts";
import { listImageObjects } from "./image-inventory.ts";
import type { PdfImageObject } from "./image-inventory.ts";
import { measurePlacements } from "./image-placements.ts";
import type { ImagePlacementSummary } from "./image-placements.ts";

export interface ImageFacts extends PdfImageObject {
  placement: ImagePlacementSummary | null;
  jpegQuality: JpegQualityEstimate | null;
}

function readJpegQuality(doc: mupdf.PDFDocument, image: PdfImageObject): JpegQualityEstimate | null {
  if (image.filters[0] !== "DCTDecode") return null;
  const raw = doc.newIndirect(image.objectNumber).readRawStream();
  try {
    return estimateJpegQuality(raw.asUint8Array());
  } finally {
    raw.destroy();
  }
}

/**
 * All image objects by object number; soft masks are included and name their parents.
 * `placementRects`: how many drawings' rectangles on their pages to list (analyze shows them).
 */
export function inspectImages(doc: mupdf.PDFDocument, placementRects = 0): Map<number, ImageFacts> {
  const objects = listImageObjects(doc);
  const placements = measurePlacements(doc, objects.keys(), placementRects).byImage;
  const facts = new Map<number, ImageFacts>();
  for (const [objectNumber, image] of objects) {
    facts.set(objectNumber, { ...image, placement: placements.get(objectNumber) ?? null, jpegQuality: readJpegQuality(doc, image) });
  }
  return facts;
}
