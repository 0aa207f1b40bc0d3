import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { inspectImages } from "./image-facts.ts";
import { Jbig2Images } from "./jbig2-images.ts";
import type { Jbig2Mode, Jbig2Stats } from "./jbig2-images.ts";
import { noisePage, textPage } from "./jbig2/test-support/bilevel-pages.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import { buildPdf } from "./test-support/generate-pdf.ts";
import type { TestImage } from "./test-support/generate-pdf.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

function openDoc(bytes: Uint8Array): mupdf.PDFDocument {
  const doc = mupdf.PDFDocument.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  return doc;
}

// The pass alone, with no resolution target: every image keeps its pixel size.
const FULL_RESOLUTION = { dpi: Number.POSITIVE_INFINITY, threshold: 1 };

function runPass(input: Uint8Array, mode: Jbig2Mode): { bytes: Uint8Array; stats: Jbig2Stats | null } {
  const doc = openDoc(input);
  try {
    const stats = new Jbig2Images(mode, FULL_RESOLUTION).apply(doc, inspectImages(doc));
    return { bytes: doc.saveToBuffer("compress").asUint8Array().slice(), stats };
  } finally {
    doc.destroy();
  }
}

interface ImageView {
  dict: string;
  /** SHA-256 of the decoded samples: comparing digests keeps page-sized images cheap to compare. */
  pixels: string;
}

/** Every image object's dictionary and decoded samples (as mupdf renders them), by object number. */
function imageViews(bytes: Uint8Array): Map<number, ImageView> {
  const doc = openDoc(bytes);
  try {
    const views = new Map<number, ImageView>();
    for (const objectNumber of inspectImages(doc).keys()) {
      const dict = doc.newIndirect(objectNumber).resolve().toString();
      views.set(objectNumber, { dict, pixels: dict.includes("/ImageMask true") ? "stencil" : createHash("sha256").update(decodeImagePixels(doc, objectNumber, false).data).digest("hex") });
    }
    return views;
  } finally {
    doc.destroy();
  }
}

function flateImage(name: string, width: number, height: number, samples: Uint8Array, dict: Record<string, unknown>): TestImage {
  return { name, stream: new Uint8Array(deflateSync(samples)), dict: { Type: "XObject", Subtype: "Image", Width: width, Height: height, Filter: "FlateDecode", ...dict } };
}

/** A PDF drawing each image at one point per pixel, side by side. */
function pdfOf(images: TestImage[]): Uint8Array {
  let x = 0;
  const placements = images.map((image) => {
    const width = image.dict.Width as number;
    const placement = { image: image.name, x, y: 10, width, height: image.dict.Height as number };
    x += width;
    return placement;
  });
  return buildPdf(images, [placements], [Math.max(x, 10), 400]);
}

function invert(bytes: Uint8Array): Uint8Array {
  return bytes.map((byte) => ~byte & 0xff);
}

describe("Jbig2Images", () => {
  it("turns a 300 DPI scan into JBIG2 with shared globals, smaller and rendering identically; off leaves it", async () => {
    const input = await generatedFile("bilevel-scan.pdf");
    const auto = await compressPdf(input, pdfCompressOptionsSchema.parse({ jbig2: "auto" }));
    expect(auto.returned_original).toBe(false);
    expect(auto.stats.jbig2?.images_converted).toBe(3);
    expect(auto.stats.jbig2?.bytes_after).toBeLessThan(auto.stats.jbig2?.bytes_before ?? 0);
    expect(auto.bytes.length).toBeLessThan(input.length);
    const before = imageViews(input);
    const after = imageViews(auto.bytes);
    expect([...after.values()].map((view) => /\/Filter\/JBIG2Decode/.test(view.dict) && /\/JBIG2Globals \d+ 0 R/.test(view.dict))).toEqual([true, true, true]);
    expect([...after.values()].map((view) => view.pixels)).toEqual([...before.values()].map((view) => view.pixels));
    // At the scan's own 300 dpi; scaled renders differ where MuPDF subsamples Flate images while decoding.
    expect(comparePdfRenders(input, auto.bytes, { dpi: 300, maxPages: 1 }).map((page) => page.ssim)).toEqual([1]);

    const off = await compressPdf(input, pdfCompressOptionsSchema.parse({ jbig2: "off" }));
    expect(off.stats.jbig2).toBeUndefined();
    expect([...imageViews(off.bytes).values()].map((view) => view.dict.includes("/FlateDecode"))).toEqual([true, true, true]);
  });

  it("brings a 1-bit image placed above the profile's 1-bit resolution down to it, still rendering the same", async () => {
    // 2400 x 600 px drawn at 288 x 72 pt: 600 dpi, above ebook's 300 dpi x 1.25.
    const text = await textPage(2400, 600, ["Downsampled 1-bit", "stencil text"]);
    const mask = flateImage("Mask", 2400, 600, invert(text.rows), { ImageMask: true });
    const input = buildPdf([mask], [[{ image: "Mask", x: 36, y: 300, width: 288, height: 72 }]]);
    const result = await compressPdf(input, pdfCompressOptionsSchema.parse({ profile: "ebook" }));
    expect(result.returned_original).toBe(false);
    expect(result.stats.jbig2).toMatchObject({ images_converted: 1, images_downsampled: 1 });
    const [view] = [...imageViews(result.bytes).values()];
    expect(view?.dict).toMatch(/\/Width 1200\b/);
    expect(view?.dict).toMatch(/\/Height 300\b/);
    for (const page of comparePdfRenders(input, result.bytes, { dpi: 150, maxPages: 1 })) {
      expect(page.ssim).toBeGreaterThan(0.95);
      expect(page.meanAbsDiff).toBeLessThan(3);
    }
    // print's 1-bit resolution is 1200 dpi: the same image keeps its pixels there.
    const print = await compressPdf(input, pdfCompressOptionsSchema.parse({ profile: "print" }));
    expect(print.stats.jbig2).toMatchObject({ images_downsampled: 0 });
  });

  it("keeps both 1-bit polarities and both stencil-mask polarities as they render", async () => {
    const text = await textPage(203, 60, ["Polarity 1-bit", "and stencils"]);
    const images = [
      flateImage("GrayDefault", 203, 60, invert(text.rows), { ColorSpace: "DeviceGray", BitsPerComponent: 1 }),
      flateImage("GrayInverted", 203, 60, text.rows, { ColorSpace: "DeviceGray", BitsPerComponent: 1, Decode: [1, 0] }),
      flateImage("MaskDefault", 203, 60, invert(text.rows), { ImageMask: true }),
      flateImage("MaskInverted", 203, 60, text.rows, { ImageMask: true, Decode: [1, 0] }),
    ];
    const input = pdfOf(images);
    const { bytes, stats } = runPass(input, "lossless");
    expect(stats?.images_converted).toBe(4);
    expect([...imageViews(bytes).values()].every((view) => view.dict.includes("/JBIG2Decode"))).toBe(true);
    expect(comparePdfRenders(input, bytes, { dpi: 72, maxPages: 1 })[0]?.meanAbsDiff).toBe(0);
    const before = [...imageViews(input).values()].map((view) => view.pixels);
    expect([...imageViews(bytes).values()].map((view) => view.pixels)).toEqual(before);
  });

  it("converts gray and RGB images holding exactly two colours to 1-bit Indexed, sample for sample", async () => {
    const ink = (await textPage(160, 50, ["Two levels"])).rows;
    const twoLevels = (colours: [number[], number[]]): Uint8Array => {
      const channels = colours[0].length;
      const samples = new Uint8Array(160 * 50 * channels);
      for (let index = 0; index < 160 * 50; index++) {
        const isInk = (((ink[Math.floor(index / 160) * 20 + ((index % 160) >> 3)] as number) >> (7 - (index % 8))) & 1) === 1;
        samples.set(isInk ? colours[0] : colours[1], index * channels);
      }
      return samples;
    };
    const threeLevels = twoLevels([[0], [255]]);
    threeLevels[5] = 128;
    const images = [
      flateImage("Gray", 160, 50, twoLevels([[40], [230]]), { ColorSpace: "DeviceGray", BitsPerComponent: 8 }),
      flateImage("Rgb", 160, 50, twoLevels([[200, 20, 30], [250, 250, 210]]), { ColorSpace: "DeviceRGB", BitsPerComponent: 8 }),
      flateImage("Three", 160, 50, threeLevels, { ColorSpace: "DeviceGray", BitsPerComponent: 8 }),
    ];
    const input = pdfOf(images);
    const { bytes, stats } = runPass(input, "auto");
    expect(stats?.images_converted).toBe(2);
    const before = imageViews(input);
    const after = imageViews(bytes);
    const dicts = [...after.values()].map((view) => view.dict);
    expect(dicts.filter((dict) => dict.includes("/JBIG2Decode") && dict.includes("/Indexed") && dict.includes("/BitsPerComponent 1"))).toHaveLength(2);
    expect([...after.values()].map((view) => view.pixels)).toEqual([...before.values()].map((view) => view.pixels));
    expect(comparePdfRenders(input, bytes, { dpi: 72, maxPages: 1 })[0]?.meanAbsDiff).toBe(0);
  });

  it("in auto keeps an image whose JBIG2 stream would be larger, which lossless converts", () => {
    const tiny = noisePage(8, 2, 0.5);
    const input = pdfOf([flateImage("Tiny", 8, 2, tiny.rows, { ColorSpace: "DeviceGray", BitsPerComponent: 1, Decode: [1, 0] })]);
    expect(runPass(input, "auto").stats?.images_converted).toBe(0);
    const lossless = runPass(input, "lossless");
    expect(lossless.stats?.images_converted).toBe(1);
    expect([...imageViews(lossless.bytes).values()].map((view) => view.pixels)).toEqual([...imageViews(input).values()].map((view) => view.pixels));
    expect(runPass(input, "off").stats).toBeNull();
  });
});
