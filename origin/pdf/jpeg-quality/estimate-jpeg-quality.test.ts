import { describe, expect, it } from "vitest";
import { generatedFile } from "../../../test/fixtures/generated-files.ts";
import { estimateJpegQuality } from "./estimate-jpeg-quality.ts";
import { encodePhotoLike } from "./photo-like-fixture.ts";
import { readQuantTables } from "./read-quant-tables.ts";

const qualities = [10, 25, 50, 75, 76, 85, 90, 95];

describe("estimateJpegQuality on sharp output", () => {
  it.each(qualities)("recovers libjpeg-turbo (Annex K) quality %i exactly", async (quality) => {
    const jpeg = await encodePhotoLike({ quality, mozjpeg: false });
    expect(estimateJpegQuality(jpeg)).toEqual({ quality, encoder: "ijg", error: 0, exact: true });
  });

  it.each(qualities)("recovers MozJPEG quality %i exactly", async (quality) => {
    const jpeg = await encodePhotoLike({ quality, mozjpeg: true });
    expect(estimateJpegQuality(jpeg)).toEqual({ quality, encoder: "mozjpeg", error: 0, exact: true });
  });

  it("recovers quality 100 from both encoders, whose tables are then identical (all ones)", async () => {
    const ijg = await encodePhotoLike({ quality: 100, mozjpeg: false });
    const mozjpeg = await encodePhotoLike({ quality: 100, mozjpeg: true });
    expect(readQuantTables(mozjpeg)?.tables).toEqual(readQuantTables(ijg)?.tables);
    expect(estimateJpegQuality(ijg)).toEqual({ quality: 100, encoder: "ijg", error: 0, exact: true });
    // Nothing in the tables tells the encoders apart here; the tie goes to the standard family.
    expect(estimateJpegQuality(mozjpeg)).toEqual({ quality: 100, encoder: "ijg", error: 0, exact: true });
  });

  it.each([
    ["4:4:4", { quality: 82, chromaSubsampling: "4:4:4" }],
    ["4:2:0", { quality: 82, chromaSubsampling: "4:2:0" }],
    ["progressive", { quality: 82, progressive: true }],
    ["MozJPEG 4:4:4 baseline", { quality: 82, mozjpeg: true, chromaSubsampling: "4:4:4", progressive: false }],
  ] as const)("is unaffected by %s", async (_, options) => {
    const jpeg = await encodePhotoLike(options);
    expect(estimateJpegQuality(jpeg)).toMatchObject({ quality: 82, encoder: "mozjpeg" in options ? "mozjpeg" : "ijg", exact: true });
  });

  it.each([false, true])("reads a single-component grayscale JPEG (mozjpeg: %s)", async (mozjpeg) => {
    const jpeg = await encodePhotoLike({ quality: 67, mozjpeg }, true);
    expect(readQuantTables(jpeg)?.componentTableIds).toEqual([0]);
    expect(estimateJpegQuality(jpeg)).toEqual({ quality: 67, encoder: mozjpeg ? "mozjpeg" : "ijg", error: 0, exact: true });
  });

  it("reports an edited table as inexact, with the quality it was edited from as the nearest", async () => {
    const jpeg = await encodePhotoLike({ quality: 80 });
    const dqtStart = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xdb);
    const edited = jpeg.slice();
    // The last zigzag entry of the luminance table: 99 * 40 / 100 = 40 at quality 80.
    edited[dqtStart + 4 + 64] = 200;
    const estimate = estimateJpegQuality(edited);
    expect(estimate).toMatchObject({ quality: 80, encoder: "ijg", exact: false });
    expect(estimate?.error).toBeGreaterThan(0);
  });
});

describe("estimateJpegQuality in a PDF", () => {
  it("recovers the q95 of a full-page photo PDF from its DCTDecode stream", async () => {
    const pdf = await generatedFile("photo-full-page.pdf");
    const jpegStart = pdf.findIndex((byte, i) => byte === 0xff && pdf[i + 1] === 0xd8 && pdf[i + 2] === 0xff);
    expect(jpegStart).toBeGreaterThan(0);
    expect(estimateJpegQuality(pdf.subarray(jpegStart))).toMatchObject({ quality: 95, exact: true });
  });
});

describe("estimateJpegQuality on hostile bytes", () => {
  it.each([
    ["empty input", new Uint8Array(0)],
    ["a lone SOI", Uint8Array.from([0xff, 0xd8])],
    ["a DQT length past the end", Uint8Array.from([0xff, 0xd8, 0xff, 0xdb, 0xff, 0xf0, 0x00, 0x10])],
    ["text", new TextEncoder().encode("%PDF-1.7 not a jpeg")],
  ])("returns null for %s", (_, bytes) => {
    expect(estimateJpegQuality(bytes)).toBeNull();
  });

  it("returns null when a real JPEG is cut in the middle of its first DQT", async () => {
    const jpeg = await encodePhotoLike({ quality: 75 });
    const dqtStart = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xdb);
    expect(estimateJpegQuality(jpeg.subarray(0, dqtStart + 30))).toBeNull();
  });

  it("returns a quality or null, never throws, for random bytes behind a JPEG signature", () => {
    let seed = 987654321;
    for (let round = 0; round < 500; round++) {
      const bytes = Uint8Array.from({ length: 400 }, () => {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        return seed >>> 24;
      });
      bytes.set([0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43, 0x00]);
      const estimate = estimateJpegQuality(bytes);
      if (estimate !== null) {
        expect(Number.isInteger(estimate.quality) && estimate.quality >= 1 && estimate.quality <= 100).toBe(true);
        expect(Number.isFinite(estimate.error)).toBe(true);
      }
    }
  });
});
