import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { listImageObjects } from "./image-inventory.ts";
import { measurePlacements } from "./image-placements.ts";
import { buildPdf, jpegImage, sharedContentPdf } from "./test-support/generate-pdf.ts";

function placementsOf(bytes: Uint8Array) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  try {
    return measurePlacements(doc, listImageObjects(doc).keys());
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
});
