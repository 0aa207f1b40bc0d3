import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { listImageObjects } from "./image-inventory.ts";
import { measurePlacements } from "./image-placements.ts";
import { buildPdf, editPdf, jpegImage, sharedContentPdf } from "./test-support/generate-pdf.ts";

function placementsOf(bytes: Uint8Array, rects = 0) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  try {
    return measurePlacements(doc, listImageObjects(doc).keys(), rects);
  } finally {
    doc.destroy();
  }
}

describe("measurePlacements", () => {
  it("runs 20,000 pages that share one content stream once, and places the image on every page", async () => {
    const measure = placementsOf(await sharedContentPdf(20_000));
    expect(measure.pagesRun).toBe(1);
    const [placement] = [...measure.byImage.values()];
    expect(measure.byImage.size).toBe(1);
    expect(placement?.pages).toHaveLength(20_000);
    expect(placement?.pages.slice(0, 3)).toEqual([1, 2, 3]);
    expect(placement?.pages.at(-1)).toBe(20_000);
    expect(placement?.placements).toBe(20_000);
    // 64 px drawn over 100 pt: 46.08 DPI.
    expect(placement?.minDpi).toBeCloseTo(46.08, 2);
  });

  it("runs each distinct page once and keeps each page's own placement", async () => {
    const photo = await jpegImage("Photo", 600, 400, 85);
    const measure = placementsOf(
      buildPdf(
        [photo],
        [
          [{ image: "Photo", x: 0, y: 0, width: 144, height: 96 }],
          [{ image: "Photo", x: 0, y: 0, width: 288, height: 192 }],
          [{ image: "Photo", x: 10, y: 10, width: 72, height: 48 }],
        ],
      ),
    );
    expect(measure.pagesRun).toBe(3);
    const [placement] = [...measure.byImage.values()];
    expect(placement?.pages).toEqual([1, 2, 3]);
    // The largest placement (288 pt for 600 px) decides: 150 DPI.
    expect(placement?.minDpi).toBeCloseTo(150, 3);
    expect(placement?.placedWidthPt).toBeCloseTo(288, 3);
  });

  it("lists no boxes unless asked, so compress pays nothing for them", async () => {
    const [placement] = [...placementsOf(await sharedContentPdf(3)).byImage.values()];
    expect(placement?.placements).toBe(3);
    expect(placement?.rects).toEqual([]);
  });

  it("runs pages that share a drawing once, yet places it on each page by that page's own rotation", async () => {
    // Two pages drawing one content stream (100 x 75 pt at (72, 600)); the second is turned 90 degrees.
    const bytes = editPdf(await sharedContentPdf(2), (doc) => {
      doc.findPage(1).put("Rotate", 90);
    });
    const measure = placementsOf(bytes, 10);
    expect(measure.pagesRun).toBe(1);
    const [placement] = [...measure.byImage.values()];
    const rounded = placement?.rects.map((rect) => ({ ...rect, x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) }));
    expect(rounded?.map(({ dpi, ...rect }) => [rect, Math.round(dpi * 100) / 100])).toEqual([
      [{ page: 1, x: 72, y: 792 - 600 - 75, width: 100, height: 75 }, 46.08],
      // Turned clockwise, the page's bottom edge is its left: x is the height above the bottom, y the distance from the left.
      [{ page: 2, x: 600, y: 72, width: 75, height: 100 }, 46.08],
    ]);
  });

  it("stops listing boxes at the number asked, across pages, while counting every drawing", async () => {
    const measure = placementsOf(await sharedContentPdf(5), 3);
    const [placement] = [...measure.byImage.values()];
    expect(placement?.placements).toBe(5);
    expect(placement?.rects.map((rect) => rect.page)).toEqual([1, 2, 3]);
  });
});
