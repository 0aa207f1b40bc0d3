import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IMAGE_SOURCE_MAX_BYTES, imageOptionsSchema } from "../../../contracts/image-options.ts";
import { PDF_MAX_BYTES } from "../../../contracts/limits/pdf.ts";
import { checkSourceBytes, inputMaxBytes } from "../decode-limits.ts";
import { originTransformSchema, type OriginTransformOptions } from "../../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { processImage } from "../process-image.ts";
import { transformImage } from "../transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "source", ...options }));

/** US Letter pages: page 1 red on its left half, page 2 blue on its top half, white elsewhere. */
function twoPagePdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    for (const content of ["1 0 0 rg 0 0 306 792 re f\n", "0 0 1 rg 0 396 612 396 re f\n"]) {
      doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, {}, content));
    }
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/** One page, red on its left half, carrying an undrawn stream of `padBytes` so the file is that much larger. */
function paddedPdf(padBytes: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const page = doc.addPage([0, 0, 612, 792], 0, {}, "1 0 0 rg 0 0 306 792 re f\n");
    page.put("PieceInfo", doc.addStream(new Uint8Array(padBytes).fill(0x41), {}));
    doc.insertPage(-1, page);
    return doc.saveToBuffer("").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/** A 40x30 TIFF of two pages: red, then blue. */
async function twoPageTiff(): Promise<Uint8Array> {
  const [width, height] = [40, 30];
  const data = Buffer.alloc(width * height * 2 * 3);
  for (let i = 0; i < width * height; i++) data[i * 3] = 255;
  for (let i = width * height; i < 2 * width * height; i++) data[i * 3 + 2] = 255;
  return sharp(data, { raw: { width, height: height * 2, channels: 3, pageHeight: height } }).tiff({ compression: "lzw" }).toBuffer();
}

async function pixel(bytes: Uint8Array, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

async function problemOf(work: Promise<unknown>): Promise<ProblemError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ProblemError)) throw new Error(`expected a problem, got ${String(error)}`);
  return error;
}

const near = (actual: number[], expected: number[]) => actual.every((value, i) => Math.abs(value - expected[i]!) <= 2);

describe("a page of a PDF", () => {
  it("draws the asked page on white at 150 dpi when no size is asked, as PNG", async () => {
    const out = await run(twoPagePdf(), { page: 2 });
    expect([out.format, out.width, out.height]).toEqual(["png", 1275, 1650]);
    expect(near(await pixel(out.bytes, 10, 10), [0, 0, 255])).toBe(true);
    expect(near(await pixel(out.bytes, 1200, 1600), [255, 255, 255])).toBe(true);
  });

  it("draws the page at the asked size, not enlarged after", async () => {
    const out = await run(twoPagePdf(), { page: 1, width: 306 });
    expect([out.width, out.height]).toEqual([306, 396]);
    expect(near(await pixel(out.bytes, 5, 200), [255, 0, 0])).toBe(true);
    expect(near(await pixel(out.bytes, 300, 200), [255, 255, 255])).toBe(true);
    const large = await run(twoPagePdf(), { page: 1, width: 3060 });
    // A vector edge stays sharp at ten times the size: one column is red, the next white.
    expect(near(await pixel(large.bytes, 1529, 1000), [255, 0, 0])).toBe(true);
    expect(near(await pixel(large.bytes, 1531, 1000), [255, 255, 255])).toBe(true);
  });

  it("refuses a page past the last with page_out_of_range naming the count", async () => {
    const problem = await problemOf(run(twoPagePdf(), { page: 3 }));
    expect([problem.slug, problem.status]).toEqual(["page_out_of_range", 422]);
    expect(problem.extensions).toMatchObject({ page: 3, pages: 2 });
  });

  it("refuses a PDF without a page as 415, naming page", async () => {
    const problem = await problemOf(run(twoPagePdf(), {}));
    expect([problem.slug, problem.status]).toEqual(["unsupported_media_type", 415]);
    expect(problem.message).toContain("page");
  });
});

describe("a page of a TIFF", () => {
  it("reads the asked page, the first by default", async () => {
    const tiff = await twoPageTiff();
    expect(await pixel((await run(tiff, { output: "png", page: 2 })).bytes, 3, 3)).toEqual([0, 0, 255]);
    expect(await pixel((await run(tiff, { output: "png" })).bytes, 3, 3)).toEqual([255, 0, 0]);
    expect(await pixel((await run(tiff, { output: "png", page: 1 })).bytes, 3, 3)).toEqual([255, 0, 0]);
  });

  it("refuses a page past the last, and any page but the first of a one-page image", async () => {
    expect((await problemOf(run(await twoPageTiff(), { page: 3 }))).extensions).toMatchObject({ page: 3, pages: 2 });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0f0" } }).png().toBuffer();
    expect((await problemOf(run(png, { page: 2 }))).slug).toBe("page_out_of_range");
    expect((await run(png, { page: 1 })).width).toBe(8);
  });
});

describe("options.page on optimize", () => {
  it("makes the image of the asked PDF page, as PNG by default", async () => {
    const out = await processImage(twoPagePdf(), imageOptionsSchema.parse({ page: 2, width: 200 }));
    expect([out.format, out.stats.original_format, out.width, out.height]).toEqual(["png", "pdf", 200, 259]);
    expect(near(await pixel(out.bytes, 100, 5), [0, 0, 255])).toBe(true);
    expect(near(await pixel(out.bytes, 100, 250), [255, 255, 255])).toBe(true);
  });

  it("refuses a PDF without page (415) and a page past the last (422)", async () => {
    expect((await problemOf(processImage(twoPagePdf(), imageOptionsSchema.parse({})))).status).toBe(415);
    expect((await problemOf(processImage(twoPagePdf(), imageOptionsSchema.parse({ page: 5 })))).slug).toBe("page_out_of_range");
  });
});

describe("a PDF source's byte limit", () => {
  it("is the PDF endpoints' limit, not the image limit: a page of a PDF past 64 MB is drawn", async () => {
    const pdf = paddedPdf(IMAGE_SOURCE_MAX_BYTES);
    expect(pdf.byteLength).toBeGreaterThan(IMAGE_SOURCE_MAX_BYTES);
    const out = await run(pdf, { page: 1, width: 100 });
    expect([out.format, out.width]).toEqual(["png", 100]);
    expect(near(await pixel(out.bytes, 10, 50), [255, 0, 0])).toBe(true);
    expect(near(await pixel(out.bytes, 90, 50), [255, 255, 255])).toBe(true);
  });

  it("holds any other source to the image limit, and a PDF to the PDF limit", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "red" } }).png().toBuffer();
    const padded = new Uint8Array(IMAGE_SOURCE_MAX_BYTES + 1);
    padded.set(png);
    expect((await problemOf(run(padded, {}))).slug).toBe("image_too_large");
    expect(() => checkSourceBytes(PDF_MAX_BYTES, "pdf")).not.toThrow();
    expect(() => checkSourceBytes(PDF_MAX_BYTES + 1, "pdf")).toThrow(ProblemError);
    expect(() => checkSourceBytes(IMAGE_SOURCE_MAX_BYTES + 1, "tiff")).toThrow(ProblemError);
    expect(() => checkSourceBytes(IMAGE_SOURCE_MAX_BYTES + 1, null)).toThrow(ProblemError);
  });

  it("is what the origin reads of a call that asks for a page", () => {
    expect(inputMaxBytes(undefined)).toBe(IMAGE_SOURCE_MAX_BYTES);
    expect(inputMaxBytes(1)).toBe(PDF_MAX_BYTES);
  });
});
