import * as mupdf from "mupdf";
import { deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { filtersOf, forEachObject } from "./pdf-objects.ts";
import { recompressFlateStreams } from "./recompress-flate.ts";
import { photoPixels } from "./test-support/generate-pdf.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const SAVE_LAYOUT_TYPES = new Set(["/ObjStm", "/XRef"]);
const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);

/** Every Flate stream of a PDF but the object and xref streams each save lays out anew: raw bytes, and what they inflate to. */
function flateStreams(bytes: Uint8Array): Array<{ raw: Uint8Array; inflated: Uint8Array; image: boolean }> {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  const streams: Array<{ raw: Uint8Array; inflated: Uint8Array; image: boolean }> = [];
  forEachObject(doc, (_, ref) => {
    if (!ref.isStream() || filtersOf(ref).join() !== "FlateDecode" || SAVE_LAYOUT_TYPES.has(ref.get("Type").toString())) return;
    const raw = ref.readRawStream().asUint8Array().slice();
    streams.push({ raw, inflated: new Uint8Array(inflateSync(raw)), image: ref.get("Subtype").toString() === "/Image" });
  });
  doc.destroy();
  return streams;
}

/** A page of text in a standard font over a lossless gray image, both deflated at `level`. */
function textAndImagePdf(level = 6): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const width = 400;
  const height = 300;
  const samples = photoPixels(width, height, 1, 3).map((value) => value & 0xf0);
  const image = doc.addRawStream(deflateSync(samples, { level }), {
    Type: "XObject", Subtype: "Image", Width: width, Height: height, ColorSpace: "DeviceGray", BitsPerComponent: 8, Filter: "FlateDecode",
  });
  const font = doc.addObject({ Type: "Font", Subtype: "Type1", BaseFont: "Helvetica" });
  const lines = Array.from({ length: 60 }, (_, i) => `BT /F1 9 Tf 40 ${760 - i * 11} Td (Line ${i}: ${"the quick brown fox ".repeat(1 + (i % 4))}) Tj ET`);
  const content = `q 200 0 0 150 300 40 cm /Im Do Q\n${lines.join("\n")}`;
  const page = doc.addPage([0, 0, 612, 792], 0, { Font: { F1: font }, XObject: { Im: image } }, "");
  page.put("Contents", doc.addRawStream(deflateSync(content, { level }), { Filter: "FlateDecode" }));
  doc.insertPage(-1, page);
  try {
    return doc.saveToBuffer("").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

describe("recompressFlateStreams", () => {
  it("writes each stream's own content back to it though two deflate at once, each at zlib's best level", async () => {
    const doc = new mupdf.PDFDocument();
    try {
      const contents = Array.from({ length: 9 }, (_, index) => `stream ${index}: ${"0 0 m 10 10 l S ".repeat(40 * (index + 1))}`);
      const objects = contents.map((content) => doc.addRawStream(deflateSync(content, { level: 1 }), { Filter: "FlateDecode" }).asIndirect());
      const stats = await recompressFlateStreams(doc, "zlib");
      expect(stats.streams_recompressed).toBe(contents.length);
      for (const [index, objectNumber] of objects.entries()) {
        const raw = doc.newIndirect(objectNumber).readRawStream().asUint8Array().slice();
        expect(inflateSync(raw).toString(), `object ${objectNumber}`).toBe(contents[index]);
        expect(raw.byteLength).toBe(deflateSync(contents[index]!, { level: 9, memLevel: 9 }).byteLength);
      }
    } finally {
      doc.destroy();
    }
  });
});

describe("compressPdf's Flate recompression", () => {
  it("brings streams a producer deflated fast down to zlib's best level, content unchanged", async () => {
    const input = textAndImagePdf(1);
    const output = await compressPdf(input, options({ strip: { metadata: false } }));
    // The image rewriter may re-encode the image itself; the page content passes through untouched.
    const before = flateStreams(input).filter((stream) => !stream.image);
    const after = flateStreams(output.bytes).filter((stream) => !stream.image);
    expect(after.length).toBeGreaterThan(0);
    const key = (stream: { inflated: Uint8Array }) => Buffer.from(stream.inflated).toString("base64");
    expect(after.map(key).sort()).toEqual(before.map(key).sort());
    for (const stream of after) {
      const best = deflateSync(stream.inflated, { level: 9, memLevel: 9 }).byteLength;
      expect(stream.raw.byteLength).toBeLessThanOrEqual(best);
      expect(stream.raw.byteLength).toBeLessThan(before.find((original) => key(original) === key(stream))!.raw.byteLength);
    }
    expect(output.stats.zopfli).toBeUndefined();
    const [page] = comparePdfRenders(input, output.bytes, { dpi: 72, maxPages: 1 });
    expect(page).toMatchObject({ meanAbsDiff: 0, ssim: 1 });
  });

  it("recompresses Flate streams smaller with the same content, and reports the saving and CPU time", async () => {
    const input = textAndImagePdf();
    const plain = await compressPdf(input, options({ strip: { metadata: false } }));
    const zopfli = await compressPdf(input, options({ strip: { metadata: false }, zopfli: true }));
    const stats = zopfli.stats.zopfli;
    expect(stats?.streams_recompressed).toBeGreaterThan(0);
    expect(stats?.bytes_saved).toBeGreaterThan(0);
    expect(stats?.cpu_ms).toBeGreaterThanOrEqual(0);
    expect(stats?.output_bytes_before).toBeGreaterThan(zopfli.bytes.byteLength);
    expect(zopfli.bytes.byteLength).toBeLessThan(plain.bytes.byteLength);
    // Same decoded streams, each at most as large as before, all valid zlib; same rendering.
    const before = flateStreams(plain.bytes);
    const after = flateStreams(zopfli.bytes);
    const key = (stream: { inflated: Uint8Array }) => Buffer.from(stream.inflated).toString("base64");
    expect(after.map(key).sort()).toEqual(before.map(key).sort());
    const rawBefore = new Map(before.map((stream) => [key(stream), stream.raw.byteLength]));
    for (const stream of after) expect(stream.raw.byteLength).toBeLessThanOrEqual(rawBefore.get(key(stream)) ?? 0);
    const [page] = comparePdfRenders(plain.bytes, zopfli.bytes, { dpi: 72, maxPages: 1 });
    expect(page).toMatchObject({ meanAbsDiff: 0, ssim: 1 });
  });

  it("keeps a form's fields intact and renders it identically", async () => {
    const input = await generatedFile("form.pdf");
    const plain = await compressPdf(input, options());
    const zopfli = await compressPdf(input, options({ zopfli: true }));
    expect(zopfli.bytes.byteLength).toBeLessThanOrEqual(plain.bytes.byteLength);
    expect(zopfli.stats.zopfli?.streams_examined).toBeGreaterThan(0);
    const doc = mupdf.Document.openDocument(zopfli.bytes, "application/pdf");
    const values = (doc.loadPage(0) as mupdf.PDFPage).getWidgets().map((widget) => widget.getValue());
    doc.destroy();
    expect(values).toEqual(["Ada Lovelace", "London"]);
    for (const page of comparePdfRenders(plain.bytes, zopfli.bytes, { dpi: 72, maxPages: 1 })) expect(page.meanAbsDiff).toBe(0);
  });
});
