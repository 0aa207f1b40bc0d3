import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { ImageOutputFormat } from "../../contracts/image-options.ts";
import { openSource } from "./decode-limits.ts";
import { encode, jpegTableOf, paletteColours, paletteLadder, webpEffortOf, type EncoderOptions } from "./encode.ts";
import { hasExifOrXmp, readJpegSegments } from "./test-support/jpeg-markers.ts";
import { photoLikePixels, pixelDistance } from "./test-support/synthetic-images.ts";

const width = 160;
const height = 120;
const defaults: EncoderOptions = { mozjpeg: true, progressive: false, chroma_subsampling: "4:2:0", strip_metadata: true };
const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>';

const photo = () => sharp(photoLikePixels(width, height, 3), { raw: { width, height, channels: 3 } });
const withMetadata = () =>
  photo()
    .withExif({ IFD0: { Copyright: "Example Photographer", ImageDescription: "test" } })
    .withXmp(XMP)
    .jpeg({ quality: 95 })
    .toBuffer();

const jpegWith = (options: Partial<EncoderOptions>) =>
  encode(photo(), { format: "jpeg", lossless: false, quality: 76 }, { ...defaults, ...options });

describe("encode: JPEG scan type", () => {
  it.each([
    [true, false, 0xc0],
    [true, true, 0xc2],
    [false, false, 0xc0],
    [false, true, 0xc2],
  ])("mozjpeg %s, progressive %s writes SOF 0x%s", async (mozjpeg, progressive, sof) => {
    const bytes = await jpegWith({ mozjpeg, progressive });
    expect(readJpegSegments(bytes).frame.sofMarker).toBe(sof);
    expect((await sharp(bytes).metadata()).isProgressive).toBe(progressive);
  });

  it("mozjpeg makes a smaller baseline file of the same picture", async () => {
    const [plain, moz] = await Promise.all([jpegWith({ mozjpeg: false }), jpegWith({ mozjpeg: true })]);
    expect(moz.byteLength).toBeLessThan(plain.byteLength);
    expect(await pixelDistance(moz, await photo().png().toBuffer())).toBeLessThan(6);
  });
});

describe("encode: chroma subsampling in the SOF", () => {
  it.each([
    ["4:2:0", { h: 2, v: 2 }],
    ["4:4:4", { h: 1, v: 1 }],
  ] as const)("%s gives luma sampling %o and chroma 1x1", async (chroma_subsampling, luma) => {
    const { frame } = readJpegSegments(await jpegWith({ chroma_subsampling }));
    expect(frame.sampling).toEqual([luma, { h: 1, v: 1 }, { h: 1, v: 1 }]);
  });
});

describe("encode: JPEG quantisation table", () => {
  // At q70 mozjpeg's table 3 scales its DC step of 16 to 10 in both planes, table 5 its own to 6.
  it("mozjpeg encodes with its table 3 unless the target names another; without mozjpeg, libjpeg's table 0", async () => {
    const at70 = (options: Partial<EncoderOptions>, jpegTable?: number) =>
      encode(photo(), { format: "jpeg", lossless: false, quality: 70, jpegTable }, { ...defaults, ...options }).then((bytes) => readJpegSegments(bytes).quantTables);
    const dc = (tables: number[][]) => tables.map((table) => table[0]);
    expect(dc(await at70({}))).toEqual([10, 10]);
    expect(dc(await at70({}, 5))).toEqual([6, 6]);
    // Annex K's tables: luma 16, 11, chroma 17, 18 at their first two steps, scaled to 60%.
    expect((await at70({ mozjpeg: false })).map((table) => table.slice(0, 2))).toEqual([[10, 7], [10, 11]]);
    expect([jpegTableOf({ format: "jpeg", lossless: false, quality: 70 }, true), jpegTableOf({ format: "jpeg", lossless: false, quality: 70, jpegTable: 5 }, true)]).toEqual([3, 5]);
    expect([jpegTableOf({ format: "jpeg", lossless: false, quality: 70 }, false), jpegTableOf({ format: "webp", lossless: false, quality: 70 }, true)]).toEqual([0, null]);
  });
});

describe("encode: WebP effort", () => {
  it("lossy WebP encodes at effort 4 unless the target names another, and reports it", async () => {
    const webpAt = (webpEffort?: number) => encode(photo(), { format: "webp", lossless: false, quality: 60, webpEffort }, defaults);
    const [four, two] = [await webpAt(), await webpAt(2)];
    expect(Buffer.from(four).equals(Buffer.from(await webpAt(4)))).toBe(true);
    expect(Buffer.from(two).equals(Buffer.from(four))).toBe(false);
    expect(await pixelDistance(two, await photo().png().toBuffer())).toBeLessThan(8);
    const lossy = { format: "webp", lossless: false, quality: 60 } as const;
    expect([webpEffortOf(lossy), webpEffortOf({ ...lossy, webpEffort: 2 }), webpEffortOf({ ...lossy, lossless: true }), webpEffortOf({ ...lossy, format: "avif" })]).toEqual([4, 2, 4, null]);
  });
});

describe("encode: metadata", () => {
  it("the test source really carries EXIF and XMP", async () => {
    expect(hasExifOrXmp(readJpegSegments(await withMetadata()))).toBe(true);
  });

  it("strip_metadata removes EXIF and XMP from JPEG", async () => {
    const bytes = await encode(openSource(await withMetadata()), { format: "jpeg", lossless: false, quality: 76 }, defaults);
    expect(hasExifOrXmp(readJpegSegments(bytes))).toBe(false);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.exif, metadata.xmp, metadata.iptc, metadata.icc]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it.each(["webp", "avif", "png"] as const)("strip_metadata removes EXIF and XMP from %s", async (format) => {
    const bytes = await encode(openSource(await withMetadata()), { format, lossless: false, quality: 76 }, defaults);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.exif, metadata.xmp]).toEqual([undefined, undefined]);
  });

  it("strip_metadata false keeps EXIF and XMP and tags the output sRGB", async () => {
    const bytes = await encode(
      openSource(await withMetadata()),
      { format: "jpeg", lossless: false, quality: 76 },
      { ...defaults, strip_metadata: false },
    );
    const metadata = await sharp(bytes).metadata();
    expect(metadata.exif?.toString("latin1")).toContain("Example Photographer");
    expect(metadata.xmp).toBeDefined();
    expect(metadata.hasProfile).toBe(true);
  });
});

describe("encode: every format decodes back to the picture", () => {
  it.each([
    ["jpeg", false, 6],
    ["webp", false, 6],
    ["avif", false, 6],
    ["png", true, 0],
    ["png", false, 12],
    ["webp", true, 0],
  ] as const)("%s (lossless %s) within %i levels", async (format: ImageOutputFormat, lossless, tolerance) => {
    const bytes = await encode(photo(), { format, lossless, quality: 76 }, defaults);
    const metadata = await sharp(bytes).metadata();
    expect(metadata.format).toBe(format === "avif" ? "heif" : format);
    expect([metadata.width, metadata.height]).toEqual([width, height]);
    expect(await pixelDistance(bytes, await photo().png().toBuffer())).toBeLessThanOrEqual(tolerance + 0.5);
  });

  it("lossy PNG is a palette of the tier's size", async () => {
    const bytes = await encode(photo(), { format: "png", lossless: false, quality: 50 }, defaults);
    const metadata = await sharp(bytes).metadata();
    expect(metadata.isPalette).toBe(true);
    expect(metadata.bitsPerSample).toBe(2);
  });

  it("a higher quality makes a larger file", async () => {
    for (const format of ["jpeg", "webp", "avif"] as const) {
      const low = await encode(photo(), { format, lossless: false, quality: 30 }, defaults);
      const high = await encode(photo(), { format, lossless: false, quality: 90 }, defaults);
      expect(high.byteLength).toBeGreaterThan(low.byteLength);
    }
  });
});

describe("paletteColours and paletteLadder", () => {
  it("map quality to the four palette tiers", () => {
    expect([100, 76, 75, 51, 50, 26, 25, 1].map(paletteColours)).toEqual([256, 256, 16, 16, 4, 4, 2, 2]);
    expect(paletteLadder(76)).toEqual([25, 50, 75, 76]);
    expect(paletteLadder(60)).toEqual([25, 50, 60]);
    expect(paletteLadder(20)).toEqual([20]);
  });
});
