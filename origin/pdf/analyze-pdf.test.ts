import * as mupdf from "mupdf";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzePdf } from "./analyze-pdf.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import { problemOf } from "./test-support/expect-problem.ts";
import { PDF_ANALYZE_MAX_PLACEMENT_RECTS, PDF_MAX_PAGES, PDF_MAX_STREAM_DECODED_BYTES } from "../../contracts/limits/pdf.ts";
import type { PdfImagePlacement } from "../../contracts/origin/pdf-analyze.ts";
import { openForRendering, renderPageLuma } from "./render-luma.ts";
import { buildPdf, editPdf, flateBombPdf, jpegImage, sharedContentPdf, withPdfaClaim } from "./test-support/generate-pdf.ts";

type Box = PdfImagePlacement["rect_pt"];

/** Within half a point on every side. */
function expectBox(actual: Box | undefined, expected: Box): void {
  expect(actual).toBeDefined();
  for (const side of ["x", "y", "width", "height"] as const) expect(Math.abs(actual![side] - expected[side]), `${side}: ${JSON.stringify(actual)}`).toBeLessThanOrEqual(0.5);
}

const INK_RENDER_DPI = 288;

/** The box of everything not white on page `index` as MuPDF draws it (as pg_ does), in points from the top-left. */
function inkBox(bytes: Uint8Array, index: number): Box {
  const doc = openForRendering(bytes, null);
  try {
    const { data, width, height } = renderPageLuma(doc, index, INK_RENDER_DPI);
    let [left, top, right, bottom] = [width, height, -1, -1];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if ((data[y * width + x] ?? 255) > 128) continue;
        [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    }
    const pt = 72 / INK_RENDER_DPI;
    return { x: left * pt, y: top * pt, width: (right + 1 - left) * pt, height: (bottom + 1 - top) * pt };
  } finally {
    doc.destroy();
  }
}

/** One page drawing a black 40 x 30 px image with `content`'s matrix, on a page of `mediaBox`. */
function blackImagePdf(content: string, mediaBox: [number, number, number, number], pageKeys: Record<string, unknown> = {}): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const image = doc.addStream(new Uint8Array(40 * 30), { Type: "XObject", Subtype: "Image", Width: 40, Height: 30, ColorSpace: "DeviceGray", BitsPerComponent: 8 });
    doc.insertPage(-1, doc.addPage(mediaBox, 0, { XObject: { Im: image } }, content));
    for (const [key, value] of Object.entries(pageKeys)) doc.findPage(0).put(key, value);
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

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

  it("gives every placement its box on its page, in points from the top-left corner, and its own DPI", () => {
    const [image] = analysis.images;
    expect(image?.placement_count).toBe(2);
    expect(image?.placements.map((placement) => placement.page)).toEqual([1, 2]);
    // Drawn from (72, 400) up in PDF space on a 792 pt page: its top is 792 - 400 - height from the top.
    expectBox(image?.placements[0]?.rect_pt, { x: 72, y: 792 - 400 - 192, width: 288, height: 192 });
    expectBox(image?.placements[1]?.rect_pt, { x: 72, y: 792 - 400 - 96, width: 144, height: 96 });
    expect(image?.placements[0]?.effective_dpi).toBeCloseTo(300, 3);
    expect(image?.placements[1]?.effective_dpi).toBeCloseTo(600, 3);
  });

  it("places each drawing where a rendering of the page shows it, on a page with a crop box and /Rotate", async () => {
    const cases: { name: string; bytes: Uint8Array }[] = [
      { name: "upright", bytes: blackImagePdf("q 200 0 0 150 100 300 cm /Im Do Q", [0, 0, 612, 792]) },
      { name: "cropped and turned", bytes: blackImagePdf("q 200 0 0 150 100 300 cm /Im Do Q", [0, 0, 612, 792], { CropBox: [50, 60, 562, 742], Rotate: 90 }) },
      { name: "media box off the origin, turned 270", bytes: blackImagePdf("q 120 0 0 90 -150 -100 cm /Im Do Q", [-200, -300, 300, 400], { Rotate: 270 }) },
      // 30 degrees: the box is the one around the turned drawing.
      { name: "image drawn turned", bytes: blackImagePdf(`q ${[173.205, 100, -75, 129.904, 300, 300].join(" ")} cm /Im Do Q`, [0, 0, 612, 792]) },
    ];
    for (const { name, bytes } of cases) {
      const [image] = (await analyzePdf(bytes, { password: null })).images;
      expect(image?.placements, name).toHaveLength(1);
      expectBox(image?.placements[0]?.rect_pt, inkBox(bytes, 0));
    }
    // The first case by hand, so a rendering that moved with the reply cannot pass alone.
    expectBox(inkBox(cases[0]!.bytes, 0), { x: 100, y: 792 - 300 - 150, width: 200, height: 150 });
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
    // Every drawing is counted; the boxes stop at the cap, in page order, each where the page draws it.
    const [image] = analysis.images;
    expect(image?.placement_count).toBe(20_000);
    expect(image?.placements).toHaveLength(PDF_ANALYZE_MAX_PLACEMENT_RECTS);
    expect(image?.placements.at(-1)?.page).toBe(PDF_ANALYZE_MAX_PLACEMENT_RECTS);
    for (const placement of [image?.placements[0], image?.placements.at(-1)]) expectBox(placement?.rect_pt, { x: 72, y: 792 - 600 - 75, width: 100, height: 75 });
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
