import * as mupdf from "mupdf";
import { deflateSync, inflateSync } from "node:zlib";
import sharp from "sharp";
import type { Sharp } from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { problemOf } from "./test-support/expect-problem.ts";
import { buildPdf, editPdf, jpegImage, photoPixels, withPdfaClaim } from "./test-support/generate-pdf.ts";
import type { TestImage } from "./test-support/generate-pdf.ts";
import { jpegFrameType, pageImages } from "./test-support/inspect-output.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);
// A 1200 x 800 image drawn at 288 x 192 pt is 300 dpi; ebook brings it to 150 dpi, 600 x 400 px.
const FULL = { x: 72, y: 400, width: 288, height: 192 };

function flateImage(name: string, width: number, height: number, colorSpace: unknown, samples: Uint8Array, extra: Record<string, unknown> = {}): TestImage {
  return {
    name,
    stream: new Uint8Array(deflateSync(samples)),
    dict: { Type: "XObject", Subtype: "Image", Width: width, Height: height, ColorSpace: colorSpace, BitsPerComponent: 8, Filter: "FlateDecode", ...extra },
  };
}

/** One page drawing an RGB photo with the given soft mask, placed by the `cm` matrix given. */
function maskedPhotoPdf(mask: TestImage, width: number, height: number, colours: Uint8Array, matrix: string): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const photo = flateImage("Photo", width, height, "DeviceRGB", colours, { SMask: doc.addRawStream(mask.stream, mask.dict) });
  const imageRef = doc.addRawStream(photo.stream, photo.dict);
  doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, { XObject: { Photo: imageRef } }, `q ${matrix} cm /Photo Do Q`));
  const bytes = doc.saveToBuffer("compress").asUint8Array().slice();
  doc.destroy();
  return bytes;
}

function expectRendersClose(before: Uint8Array, after: Uint8Array, password?: string) {
  for (const page of comparePdfRenders(before, after, { dpi: 36, maxPages: 4, password: password ?? null })) {
    expect(page.meanAbsDiff, `page ${page.page}`).toBeLessThan(6);
    expect(page.ssim, `page ${page.page}`).toBeGreaterThan(0.9);
  }
}

describe("compressPdf image rewriting", () => {
  let sharedPhoto: Uint8Array;

  beforeAll(async () => {
    const photo = await jpegImage("Photo", 1200, 800, 92);
    sharedPhoto = buildPdf([photo], [[{ image: "Photo", ...FULL }], [{ image: "Photo", x: 72, y: 400, width: 144, height: 96 }]]);
  });

  it("resamples to the profile DPI at the largest placement, once for a shared image, as baseline JPEG", async () => {
    const result = await compressPdf(sharedPhoto, options({ profile: "ebook" }));
    expect(result.returned_original).toBe(false);
    expect(result.bytes.byteLength).toBeLessThan(sharedPhoto.byteLength / 2);
    const [first, second] = pageImages(result.bytes);
    expect(first?.[0]?.objectNumber).toBe(second?.[0]?.objectNumber);
    expect(first?.[0]).toMatchObject({ width: 600, height: 400, filter: "DCTDecode" });
    expect(jpegFrameType(first?.[0]?.raw ?? new Uint8Array())).toBe("baseline");
    expect(result.stats.images).toHaveLength(1);
    expect(result.stats.images[0]?.after?.dpi).toBeCloseTo(150, 3);
    expectRendersClose(sharedPhoto, result.bytes);
  });

  it("caps the resolution with max_dpi and keeps an image already at the target", async () => {
    const capped = await compressPdf(sharedPhoto, options({ profile: "print", max_dpi: 100 }));
    expect(pageImages(capped.bytes)[0]?.[0]).toMatchObject({ width: 400, height: 267 });
    // 300 dpi is within print's 1.25x threshold of 280, but max_dpi is a ceiling.
    const ceiling = await compressPdf(sharedPhoto, options({ profile: "print", max_dpi: 280 }));
    expect(pageImages(ceiling.bytes)[0]?.[0]).toMatchObject({ width: 1120, height: 747 });
    const prepress = await compressPdf(sharedPhoto, options({ profile: "prepress" }));
    expect(prepress.stats.images[0]?.kept_reason).toBe("jpeg_already_at_quality");
  });

  it("keeps CMYK as CMYK, and makes it gray when asked", async () => {
    const cmyk = buildPdf([flateImage("Cmyk", 1200, 800, "DeviceCMYK", photoPixels(1200, 800, 4))], [[{ image: "Cmyk", ...FULL }]]);
    const result = await compressPdf(cmyk, options({ profile: "ebook" }));
    const [image] = pageImages(result.bytes)[0] ?? [];
    expect(image).toMatchObject({ width: 600, height: 400, filter: "DCTDecode", colorSpace: "/DeviceCMYK" });
    expect(jpegFrameType(image?.raw ?? new Uint8Array())).toBe("baseline");
    expectRendersClose(cmyk, result.bytes);
    const gray = await compressPdf(cmyk, options({ profile: "ebook", grayscale: true }));
    expect(pageImages(gray.bytes)[0]?.[0]?.colorSpace).toBe("/DeviceGray");
  });

  it("resamples a soft mask with its image", async () => {
    const input = maskedPhotoPdf(flateImage("Mask", 1200, 800, "DeviceGray", photoPixels(1200, 800, 1, 7)), 1200, 800, photoPixels(1200, 800, 3), "288 0 0 192 72 400");
    const result = await compressPdf(input, options({ profile: "ebook" }));
    expect(pageImages(result.bytes)[0]?.[0]).toMatchObject({ width: 600, height: 400, softMask: { width: 600, height: 400 } });
    expectRendersClose(input, result.bytes);
  });

  it("writes a /Matte mask at its image's new size and drops /Matte, as the colours written are un-blended", async () => {
    // 1195 x 560 drawn at 288 x 140 pt: the height sets the 288 dpi, so ebook's image is 622 x 292,
    // where scaling the mask by the width's ratio alone gave it 291 rows.
    const alpha = new Uint8Array(1195 * 560).map((_, i) => 64 + ((i % 1195) % 160));
    const colours = photoPixels(1195, 560, 3);
    // Stored pre-blended with a black matte: each colour times its alpha.
    const blended = colours.map((value, i) => Math.round((value * alpha[Math.floor(i / 3)]!) / 255));
    const input = maskedPhotoPdf(flateImage("Mask", 1195, 560, "DeviceGray", alpha, { Matte: [0, 0, 0] }), 1195, 560, blended, "288 0 0 140 72 400");
    const result = await compressPdf(input, options({ profile: "ebook" }));
    expect(pageImages(result.bytes)[0]?.[0]).toMatchObject({ width: 622, height: 292, softMask: { width: 622, height: 292 } });
    const output = mupdf.PDFDocument.openDocument(result.bytes, "application/pdf") as mupdf.PDFDocument;
    const image = output.findPage(0).get("Resources").get("XObject").get("Photo");
    expect(image.get("SMask").get("Matte").isNull()).toBe(true);
    output.destroy();
    // Un-blended twice (the /Matte kept), the page read 2.7 levels off on average; once, 0.1.
    const [page] = comparePdfRenders(input, result.bytes, { dpi: 72, maxPages: 1, password: null });
    expect(page?.meanAbsDiff).toBeLessThan(1);
  });

  it("decodes 16-bit and Indexed images and keeps flat graphics lossless", async () => {
    // Palette bytes stay below 128 so the PDF string holds them verbatim.
    const palette = String.fromCharCode(...Array.from({ length: 12 }, (_, i) => (i * 37) % 128));
    const flat = new Uint8Array(1200 * 800).map((_, i) => (Math.floor((i % 1200) / 300) + Math.floor(i / 1200 / 200)) % 4);
    const input = buildPdf(
      [
        flateImage("Deep", 1200, 800, "DeviceRGB", photoPixels(2400, 800, 3), { BitsPerComponent: 16 }),
        flateImage("Flat", 1200, 800, ["Indexed", "DeviceRGB", 3, `(${palette})`], flat),
      ],
      [[{ image: "Deep", ...FULL }, { image: "Flat", x: 72, y: 100, width: 288, height: 192 }]],
    );
    const result = await compressPdf(input, options({ profile: "ebook" }));
    const byName = pageImages(result.bytes)[0] ?? [];
    expect(byName.map((image) => [image.width, image.filter]).sort()).toEqual([
      [600, "DCTDecode"],
      [600, "FlateDecode"],
    ]);
    expectRendersClose(input, result.bytes);
  });

  it("writes each image's own pixels back to it and lists them in the document's order, though images are encoded two at a time", async () => {
    // Four photos tinted apart, each on its own page at 300 dpi, so each is resampled and searched for its floor.
    const tints = [[60, 0, 0], [0, 60, 0], [0, 0, 60], [-60, -60, -60]] as const;
    const pixels = tints.map((tint, index) => photoPixels(400, 300, 3, index + 1).map((value, offset) => Math.max(0, Math.min(255, value + tint[offset % 3]!))));
    const images = pixels.map((samples, index) => flateImage(`Tinted${index}`, 400, 300, "DeviceRGB", samples));
    const input = buildPdf(images, images.map((image) => [{ image: image.name, x: 72, y: 400, width: 96, height: 72 }]));
    const result = await compressPdf(input, options({ profile: "ebook" }));
    const inputObjects = pageImages(input).map((page) => page[0]!.objectNumber);
    expect(result.stats.images.map((image) => image.object_number)).toEqual([...inputObjects].sort((a, b) => a - b));
    const meanOf = async (decoded: Sharp) => (await decoded.stats()).channels.slice(0, 3).map((channel) => channel.mean);
    for (const [page, written] of pageImages(result.bytes).entries()) {
      const image = written[0]!;
      expect(image).toMatchObject({ width: 200, height: 150 });
      const before = await meanOf(sharp(pixels[page], { raw: { width: 400, height: 300, channels: 3 } }));
      const after = await meanOf(image.filter === "DCTDecode" ? sharp(image.raw) : sharp(inflateSync(image.raw), { raw: { width: 200, height: 150, channels: 3 } }));
      for (const channel of [0, 1, 2]) expect(Math.abs(after[channel]! - before[channel]!), `page ${page + 1} channel ${channel}`).toBeLessThan(4);
    }
  });
});

describe("compressPdf refusals and protections", () => {
  let photoPdf: Uint8Array;

  beforeAll(async () => {
    photoPdf = buildPdf([await jpegImage("Photo", 1200, 800, 92)], [[{ image: "Photo", ...FULL }]]);
  });

  it("refuses a signed PDF unless allowed to break the signature", async () => {
    const signed = editPdf(photoPdf, (doc) => {
      const signature = doc.addObject({ Type: "Sig", Filter: "Adobe.PPKLite", ByteRange: [0, 10, 20, 30], Contents: "(sig)" });
      const field = doc.addObject({ FT: "Sig", T: "(Approval)", V: signature, Subtype: "Widget", Rect: [0, 0, 0, 0], P: doc.findPage(0) });
      doc.findPage(0).put("Annots", [field]);
      doc.getTrailer().get("Root").put("AcroForm", { Fields: [field], SigFlags: 3 });
    });
    const problem = await problemOf(compressPdf(signed, options()));
    expect(problem.slug).toBe("pdf_signed");
    expect(problem.status).toBe(422);
    expect(problem.extensions.signature_fields).toEqual(["Approval"]);
    const broken = await compressPdf(signed, options({ allow_signature_break: true }));
    expect(broken.returned_original).toBe(false);
    expect(broken.warnings.map((warning) => warning.code)).toContain("signatures_invalidated");
  });

  it("refuses PDF/A unless allowed, and then drops the conformance claim", async () => {
    const pdfa = withPdfaClaim(photoPdf);
    expect((await problemOf(compressPdf(pdfa, options()))).slug).toBe("pdf_conformance");
    const result = await compressPdf(pdfa, options({ allow_conformance_break: true, strip: { metadata: false } }));
    const doc = mupdf.Document.openDocument(result.bytes, "application/pdf").asPDF();
    const catalog = doc?.getTrailer().get("Root");
    const xmp = new TextDecoder().decode(catalog?.get("Metadata").readStream().asUint8Array());
    expect(xmp).toContain("x:xmpmeta");
    expect(xmp).not.toContain("pdfaid");
    expect(catalog?.get("OutputIntents").isNull()).toBe(true);
    doc?.destroy();
  });

  it("re-encrypts an encrypted input with the same password", async () => {
    const encrypted = editPdf(photoPdf, () => undefined, "encrypt=aes-256,user-password=user-secret,owner-password=owner-secret");
    expect((await problemOf(compressPdf(encrypted, options()))).slug).toBe("pdf_password_required");
    const result = await compressPdf(encrypted, options({ password: "user-secret" }));
    expect(result.returned_original).toBe(false);
    const reopened = mupdf.Document.openDocument(result.bytes, "application/pdf");
    expect(reopened.needsPassword()).toBe(true);
    expect(reopened.authenticatePassword("user-secret")).toBeGreaterThan(0);
    expect(reopened.authenticatePassword("owner-secret")).toBeGreaterThan(0);
    reopened.destroy();
    expectRendersClose(encrypted, result.bytes, "user-secret");
  });

  it("returns the original, marked, when it cannot make the file smaller", async () => {
    const small = await jpegImage("Small", 300, 200, 60);
    const tight = editPdf(buildPdf([small], [[{ image: "Small", ...FULL }]]), () => undefined, "garbage=4,compress,objstms");
    const result = await compressPdf(tight, options());
    expect(result.returned_original).toBe(true);
    expect(result.bytes).toBe(tight);
    expect(result.stats.ratio).toBe(1);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["not_smaller"]);
  });

  it("answers 413 above 200 MB and 422 for bytes that are not a PDF", async () => {
    const huge = new Uint8Array(PDF_MAX_BYTES + 1);
    expect((await problemOf(compressPdf(huge, options()))).status).toBe(413);
    expect((await problemOf(compressPdf(new TextEncoder().encode("%PDF-1.7 garbage"), options()))).slug).toBe("pdf_unreadable");
  });

  it("strips annotations but keeps links and form widgets", async () => {
    const annotated = editPdf(photoPdf, (doc) => {
      const page = doc.loadPage(0);
      page.createAnnotation("Text").setContents("note");
      page.createLink([10, 10, 100, 40], "https://example.com");
      const field = doc.addObject({ FT: "Tx", T: "(name)", Subtype: "Widget", Rect: [100, 100, 200, 120], P: doc.findPage(0) });
      const annots = doc.findPage(0).get("Annots");
      annots.push(field);
      doc.getTrailer().get("Root").put("AcroForm", { Fields: [field] });
    });
    const result = await compressPdf(annotated, options({ strip: { annotations: true } }));
    const doc = mupdf.Document.openDocument(result.bytes, "application/pdf").asPDF();
    const subtypes: string[] = [];
    doc?.findPage(0).get("Annots").forEach((annot) => subtypes.push(annot.get("Subtype").asName()));
    expect(subtypes.sort()).toEqual(["Link", "Widget"]);
    doc?.destroy();
  });
});
