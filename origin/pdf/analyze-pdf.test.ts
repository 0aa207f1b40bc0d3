import * as mupdf from "mupdf";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzePdf } from "./analyze-pdf.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import { problemOf } from "./test-support/expect-problem.ts";
import { PDF_MAX_PAGES, PDF_MAX_STREAM_DECODED_BYTES } from "../../contracts/limits/pdf.ts";
import { buildPdf, editPdf, flateBombPdf, jpegImage, sharedContentPdf, withPdfaClaim } from "./test-support/generate-pdf.ts";

describe("analyzePdf on generated documents", () => {
  // 1200 x 800 px drawn at 4 x 2.667 in (300 dpi) on page 1 and at half that size (600 dpi) on page 2.
  let twoPlacements: Uint8Array;
  let analysis: PdfAnalysis;

  beforeAll(async () => {
    const photo = await jpegImage("Photo", 1200, 800, 90);
    twoPlacements = buildPdf(
      [photo],
      [[{ image: "Photo", x: 72, y: 400, width: 288, height: 192 }], [{ image: "Photo", x: 72, y: 400, width: 144, height: 96 }]],
    );
    analysis = await analyzePdf(twoPlacements, { password: null });
  });

  it("reports the image once, on both pages, at the DPI of its largest placement", () => {
    expect(analysis.images).toHaveLength(1);
    const [image] = analysis.images;
    expect(image?.pages).toEqual([1, 2]);
    expect(image?.width).toBe(1200);
    expect(image?.height).toBe(800);
    expect(image?.bits_per_component).toBe(8);
    expect(image?.filters).toEqual(["DCTDecode"]);
    expect(image?.colorspace.family).toBe("DeviceRGB");
    expect(image?.effective_dpi).toBeCloseTo(300, 3);
    expect(image?.placed_size_pt?.width).toBeCloseTo(288, 3);
    expect(image?.estimated_jpeg_quality).toBe(90);
    expect(image?.estimated_jpeg_encoder).toBe("ijg");
  });

  it("accounts for every byte and the page geometry", () => {
    const { composition } = analysis;
    expect(composition.pages).toBe(2);
    expect(composition.page_sizes_pt).toEqual([
      { width: 612, height: 792 },
      { width: 612, height: 792 },
    ]);
    const sum = Object.values(composition.bytes).reduce((a, b) => a + b, 0);
    expect(sum).toBe(twoPlacements.byteLength);
    expect(composition.bytes.images).toBe(analysis.images[0]?.bytes);
  });

  it("projects more savings and more risk for smaller profiles", () => {
    const { screen, ebook, prepress } = analysis.projection;
    expect(screen.estimated_bytes).toBeLessThan(ebook.estimated_bytes);
    expect(ebook.estimated_bytes).toBeLessThan(twoPlacements.byteLength);
    expect(screen.quality_risk).toBe("high");
    expect(ebook.quality_risk).toBe("low");
    // 300 dpi at quality 90 is already what prepress asks for: nothing to rewrite.
    expect(prepress.quality_risk).toBe("none");
    expect(prepress.images_rewritten).toBe(0);
  });

  it("reads a PDF/A claim written with single-quoted XMP attributes", async () => {
    const result = await analyzePdf(withPdfaClaim(twoPlacements), { password: null });
    expect(result.flags.conformance).toEqual([{ standard: "PDF/A", part: "2", conformance: "B" }]);
    expect(result.flags.output_intents).toBe(true);
  });

  it("needs the password of an encrypted document and refuses a wrong one", async () => {
    const encrypted = editPdf(twoPlacements, () => undefined, "encrypt=aes-256,user-password=user-secret,owner-password=owner-secret");
    expect((await problemOf(analyzePdf(encrypted, { password: null }))).slug).toBe("pdf_password_required");
    expect((await problemOf(analyzePdf(encrypted, { password: "nope" }))).slug).toBe("pdf_password_invalid");
    const opened = await analyzePdf(encrypted, { password: "user-secret" });
    expect(opened.flags.encrypted).toBe(true);
    expect(opened.images[0]?.effective_dpi).toBeCloseTo(300, 3);
  });

  it("turns bytes that are not a PDF, or a PDF without pages, into pdf_unreadable", async () => {
    expect((await problemOf(analyzePdf(new TextEncoder().encode("hello, not a pdf"), { password: null }))).slug).toBe("pdf_unreadable");
    const truncated = twoPlacements.subarray(0, 200);
    expect((await problemOf(analyzePdf(truncated, { password: null }))).slug).toBe("pdf_unreadable");
  });

  it("finds a stencil mask and a soft mask with their parents", async () => {
    const doc = new mupdf.PDFDocument();
    const mask = doc.addStream(new Uint8Array(64 * 64).fill(200), { Type: "XObject", Subtype: "Image", Width: 64, Height: 64, ColorSpace: "DeviceGray", BitsPerComponent: 8 });
    const image = doc.addStream(new Uint8Array(64 * 64 * 3).fill(90), {
      Type: "XObject",
      Subtype: "Image",
      Width: 64,
      Height: 64,
      ColorSpace: "DeviceRGB",
      BitsPerComponent: 8,
      SMask: mask,
    });
    doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, { XObject: { Im: image } }, "q 64 0 0 64 10 10 cm /Im Do Q"));
    const bytes = doc.saveToBuffer("compress").asUint8Array().slice();
    doc.destroy();
    const result = await analyzePdf(bytes, { password: null });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]?.soft_mask).toMatchObject({ width: 64, height: 64 });
    expect(result.images[0]?.effective_dpi).toBeCloseTo(72, 3);
  });
});

describe("analyzePdf on hostile documents", () => {
  it("answers 20,000 pages that share one content stream, every page accounted for", async () => {
    const analysis = await analyzePdf(await sharedContentPdf(20_000), { password: null });
    expect(analysis.composition.pages).toBe(20_000);
    expect(analysis.composition.page_sizes_pt).toHaveLength(20_000);
    expect(analysis.images).toHaveLength(1);
    expect(analysis.images[0]?.pages).toHaveLength(20_000);
  });

  it("refuses more pages than the cap, from the page tree, as payload_too_large", async () => {
    const problem = await problemOf(analyzePdf(await sharedContentPdf(PDF_MAX_PAGES + 1), { password: null }));
    expect(problem.slug).toBe("payload_too_large");
    expect(problem.extensions).toMatchObject({ pages: PDF_MAX_PAGES + 1, max_pages: PDF_MAX_PAGES });
  });

  it("refuses a Flate bomb before anything decodes it", async () => {
    const bomb = flateBombPdf(PDF_MAX_STREAM_DECODED_BYTES + 32 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const problem = await problemOf(analyzePdf(bomb, { password: null }));
    expect(problem.slug).toBe("payload_too_large");
    expect(problem.extensions).toMatchObject({ max_stream_decoded_bytes: PDF_MAX_STREAM_DECODED_BYTES });
  });

  it("takes a stream that inflates within the limit", async () => {
    const analysis = await analyzePdf(flateBombPdf(8 * 1024 * 1024), { password: null });
    expect(analysis.composition.pages).toBe(1);
  });
});
