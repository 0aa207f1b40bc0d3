import { deflateSync } from "node:zlib";
import * as mupdf from "mupdf";
import sharp from "sharp";
import type { Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { inspectImages } from "./image-facts.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";
import { resamplePixels } from "./resample-pixels.ts";
import { sizedImagePixels } from "./sized-pixels.ts";
import { buildPdf, photoPixels } from "./test-support/generate-pdf.ts";

const WIDTH = 1200;
const HEIGHT = 800;

async function jpegOf(channels: 1 | 3, encode: (image: Sharp) => Sharp = (image) => image): Promise<Uint8Array> {
  const raw = sharp(photoPixels(WIDTH, HEIGHT, channels), { raw: { width: WIDTH, height: HEIGHT, channels } });
  return new Uint8Array(await encode(channels === 1 ? raw.toColourspace("b-w") : raw).jpeg({ quality: 90 }).toBuffer());
}

/** One page drawing `jpeg` as its only image, with `extra` in the image's dictionary. */
function documentWith(jpeg: Uint8Array, channels: 1 | 3, extra: Record<string, unknown> = {}): mupdf.PDFDocument {
  const dict = { Type: "XObject", Subtype: "Image", Width: WIDTH, Height: HEIGHT, ColorSpace: channels === 1 ? "DeviceGray" : "DeviceRGB", BitsPerComponent: 8, Filter: "DCTDecode", ...extra };
  const bytes = buildPdf([{ name: "Photo", stream: jpeg, dict }], [[{ image: "Photo", x: 0, y: 0, width: 288, height: 192 }]]);
  return mupdf.PDFDocument.openDocument(bytes, "application/pdf") as mupdf.PDFDocument;
}

function onlyImage(doc: mupdf.PDFDocument) {
  const [image] = inspectImages(doc).values();
  if (image === undefined) throw new Error("no image");
  return image;
}

function meanDifference(a: RawPixels, b: RawPixels): number {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return sum / a.data.length;
}

/** mupdf's decode resampled: what compress wrote before plain JPEGs were decoded by sharp. */
async function throughMupdf(doc: mupdf.PDFDocument, width: number, height: number, grayscale = false): Promise<RawPixels> {
  return resamplePixels(decodeImagePixels(doc, onlyImage(doc).objectNumber, grayscale), width, height);
}

describe("sizedImagePixels", () => {
  it.each([1, 3] as const)("decodes a plain %i-channel JPEG to the pixels mupdf gives, at its size and shrunk", async (channels) => {
    const doc = documentWith(await jpegOf(channels), channels);
    const image = onlyImage(doc);
    for (const [width, height] of [[WIDTH, HEIGHT], [600, 400], [150, 100]] as const) {
      const pixels = await sizedImagePixels(doc, image, width, height, false);
      expect(pixels.channels).toBe(channels);
      expect(meanDifference(pixels, await throughMupdf(doc, width, height))).toBeLessThan(1);
    }
  });

  it("applies a Decode array, as mupdf does: inverted samples come out inverted", async () => {
    const jpeg = await jpegOf(3);
    const plain = await sizedImagePixels(documentWith(jpeg, 3), onlyImage(documentWith(jpeg, 3)), 600, 400, false);
    const invertedDoc = documentWith(jpeg, 3, { Decode: [1, 0, 1, 0, 1, 0] });
    const inverted = await sizedImagePixels(invertedDoc, onlyImage(invertedDoc), 600, 400, false);
    const flipped = { ...plain, data: plain.data.map((value) => 255 - value) };
    expect(meanDifference(inverted, flipped)).toBeLessThan(1);
  });

  it("reads the samples of a JPEG carrying an ICC profile as stored, not converted to sRGB", async () => {
    const jpeg = await jpegOf(3, (image) => image.withIccProfile("p3"));
    expect((await sharp(jpeg).metadata()).hasProfile).toBe(true);
    const doc = documentWith(jpeg, 3);
    const pixels = await sizedImagePixels(doc, onlyImage(doc), 600, 400, false);
    expect(meanDifference(pixels, await throughMupdf(doc, 600, 400))).toBeLessThan(1);
  });

  it("reads colours blended with a soft mask's /Matte as mupdf un-blends them", async () => {
    const jpeg = await jpegOf(3);
    const alpha = new Uint8Array(WIDTH * HEIGHT).map((_, index) => (index % WIDTH) % 256);
    const mask = { name: "Mask", stream: new Uint8Array(deflateSync(alpha)), dict: { Type: "XObject", Subtype: "Image", Width: WIDTH, Height: HEIGHT, ColorSpace: "DeviceGray", BitsPerComponent: 8, Filter: "FlateDecode", Matte: [0, 0, 0] } };
    const bytes = buildPdf([mask, { name: "Photo", stream: jpeg, dict: { Type: "XObject", Subtype: "Image", Width: WIDTH, Height: HEIGHT, ColorSpace: "DeviceRGB", BitsPerComponent: 8, Filter: "DCTDecode" } }], [[{ image: "Photo", x: 0, y: 0, width: 288, height: 192 }]]);
    const doc = mupdf.PDFDocument.openDocument(bytes, "application/pdf") as mupdf.PDFDocument;
    const images = [...inspectImages(doc).values()];
    const photoNumber = images.find((image) => image.filters[0] === "DCTDecode")?.objectNumber ?? 0;
    const maskNumber = images.find((image) => image.filters[0] === "FlateDecode")?.objectNumber ?? 0;
    doc.newIndirect(photoNumber).put("SMask", doc.newIndirect(maskNumber));
    const image = inspectImages(doc).get(photoNumber);
    if (image === undefined) throw new Error("no photo");
    const pixels = await sizedImagePixels(doc, image, 600, 400, false);
    const plain = await sizedImagePixels(documentWith(jpeg, 3), onlyImage(documentWith(jpeg, 3)), 600, 400, false);
    expect(meanDifference(pixels, await resamplePixels(decodeImagePixels(doc, photoNumber, false), 600, 400))).toBeLessThan(1);
    expect(meanDifference(pixels, plain)).toBeGreaterThan(5);
  });

  it("gives gray pixels of a colour JPEG when asked, as mupdf converts them", async () => {
    const doc = documentWith(await jpegOf(3), 3);
    const pixels = await sizedImagePixels(doc, onlyImage(doc), 600, 400, true);
    expect(pixels.channels).toBe(1);
    expect(meanDifference(pixels, await throughMupdf(doc, 600, 400, true))).toBeLessThan(1);
  });

  it("decodes a truncated JPEG as far as mupdf can read it instead of failing", async () => {
    const jpeg = await jpegOf(3);
    const doc = documentWith(jpeg.subarray(0, Math.floor(jpeg.byteLength * 0.6)), 3);
    const pixels = await sizedImagePixels(doc, onlyImage(doc), 600, 400, false);
    expect([pixels.width, pixels.height, pixels.channels]).toEqual([600, 400, 3]);
    const top = { ...pixels, height: 100, data: pixels.data.subarray(0, 600 * 100 * 3) };
    const whole = await sizedImagePixels(documentWith(jpeg, 3), onlyImage(documentWith(jpeg, 3)), 600, 400, false);
    expect(meanDifference(top, { ...whole, height: 100, data: whole.data.subarray(0, 600 * 100 * 3) })).toBeLessThan(1);
  });
});
