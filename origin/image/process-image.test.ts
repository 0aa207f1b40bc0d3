import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { imageOptionsSchema, type ImageOptionsInput } from "../../contracts/image-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { encode } from "./encode.ts";
import { MIN_SEARCH_QUALITY } from "./fit-to-bytes.ts";
import { processImage } from "./process-image.ts";
import { unprofiledCmykJpeg } from "./test-support/cmyk-jpegs.ts";
import { hasExifOrXmp, readJpegSegments } from "./test-support/jpeg-markers.ts";
import { meanColour, photoLikeJpeg, photoLikePixels, pixelDistance, pngHeaderBomb } from "./test-support/synthetic-images.ts";

const run = (input: Uint8Array, options: ImageOptionsInput = {}) => processImage(input, imageOptionsSchema.parse(options));

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

let photo: Uint8Array;
beforeAll(async () => {
  photo = await photoLikeJpeg(1200, 900, 95);
});

describe("processImage defaults", () => {
  it("makes a photo smaller, picks the smallest auto candidate and reports the stats", async () => {
    const result = await run(photo, { width: 600, format: "auto" });
    expect([result.width, result.height]).toEqual([600, 450]);
    expect(result.stats).toMatchObject({
      original_bytes: photo.byteLength,
      output_bytes: result.bytes.byteLength,
      original_width: 1200,
      original_height: 900,
      original_format: "jpeg",
      quality: 76,
      lossless: false,
      orientation_applied: null,
      first_frame_only: false,
      format_chosen_by_auto: true,
    });
    expect(result.stats.ratio).toBeCloseTo(result.bytes.byteLength / photo.byteLength, 3);
    expect(result.stats.candidates?.map((c) => c.format)).toEqual(["jpeg", "webp", "avif"]);
    expect(result.stats.encodes).toBe(3);
    expect(result.bytes.byteLength).toBe(Math.min(...(result.stats.candidates ?? []).map((c) => c.output_bytes)));
    const decoded = await sharp(result.bytes).metadata();
    expect([decoded.width, decoded.height]).toEqual([600, 450]);
    expect(await pixelDistance(result.bytes, photo)).toBeLessThan(8);
  });

  it("writes baseline JPEG by default and progressive only when asked", async () => {
    const baseline = await run(photo, { width: 300, format: "jpeg" });
    expect(readJpegSegments(baseline.bytes).frame.sofMarker).toBe(0xc0);
    const progressive = await run(photo, { width: 300, format: "jpeg", progressive: true });
    expect(readJpegSegments(progressive.bytes).frame.sofMarker).toBe(0xc2);
    const fullChroma = await run(photo, { width: 300, format: "jpeg", chroma_subsampling: "4:4:4" });
    expect(readJpegSegments(fullChroma.bytes).frame.sampling[0]).toEqual({ h: 1, v: 1 });
  });

  it("never enlarges unless asked", async () => {
    expect((await run(photo, { width: 5000, format: "jpeg" })).width).toBe(1200);
    expect((await run(photo, { width: 2400, format: "jpeg", enlarge: true })).width).toBe(2400);
  });
});

describe("processImage orientation and metadata", () => {
  it.each(["landscape-3", "landscape-6", "portrait-5", "portrait-8"] as const)("%s comes out upright", async (name) => {
    const input = await generatedFile(`${name}.jpg`);
    const reference = await generatedFile(name.startsWith("landscape") ? "landscape-1.jpg" : "portrait-1.jpg");
    const result = await run(input, { width: 300, format: "jpeg" });
    expect(result.stats.orientation_applied).toBe(Number(name.at(-1)));
    expect(result.width).toBe(300);
    expect(result.height).toBe(name.startsWith("landscape") ? 200 : 450);
    expect(result.stats.original_width).toBe(name.startsWith("landscape") ? 1800 : 1200);
    expect(await pixelDistance(result.bytes, reference)).toBeLessThan(6);
  });

  it("removes the orientation tag but keeps the rest when strip_metadata is false", async () => {
    const withExif = await sharp(await generatedFile("landscape-6.jpg"))
      .withExifMerge({ IFD0: { Copyright: "Example Photographer" } })
      .keepExif()
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).orientation).toBe(6);
    const kept = await run(withExif, { width: 300, format: "jpeg", strip_metadata: false });
    const metadata = await sharp(kept.bytes).metadata();
    expect(metadata.exif?.toString("latin1")).toContain("Example Photographer");
    expect(metadata.orientation ?? 1).toBe(1);
    expect([metadata.width, metadata.height]).toEqual([300, 200]);
    const stripped = await run(withExif, { width: 300, format: "jpeg" });
    expect(hasExifOrXmp(readJpegSegments(stripped.bytes))).toBe(false);
  });
});

describe("processImage colour and alpha", () => {
  it("renders a CMYK JPEG in the colours of its sRGB original", async () => {
    const original = sharp(photoLikePixels(300, 200, 5), { raw: { width: 300, height: 200, channels: 3 } });
    // Unprofiled CMYK as ImageMagick writes it, shown the way browsers show it (browser-cmyk.ts).
    const cmyk = await unprofiledCmykJpeg(photoLikePixels(300, 200, 5), 300, 200, "cmyk");
    const result = await run(cmyk, { format: "jpeg" });
    const [expected, actual] = [await meanColour(await original.png().toBuffer()), await meanColour(result.bytes)];
    actual.forEach((value, i) => expect(Math.abs(value - (expected[i] ?? 0))).toBeLessThan(12));
    expect((await sharp(result.bytes).metadata()).space).toBe("srgb");
  });

  it.each(["jpeg", "png"] as const)("keeps a greyscale source one channel in %s", async (format) => {
    const result = await run(await generatedFile("grey16.png"), { format });
    const metadata = await sharp(result.bytes).metadata();
    expect([metadata.channels, metadata.depth]).toEqual([1, "uchar"]);
    expect(await pixelDistance(result.bytes, await generatedFile("grey16.png"))).toBeLessThan(3);
  });

  const transparentLogo = () => {
    const data = Buffer.alloc(100 * 100 * 4);
    for (let p = 0; p < 10_000; p++) if (p % 100 >= 50) data.set([200, 20, 20, 255], p * 4);
    return sharp(data, { raw: { width: 100, height: 100, channels: 4 } }).png().toBuffer();
  };

  it("flattens transparency onto the background for JPEG", async () => {
    const result = await run(await transparentLogo(), { format: "jpeg", background: "#00ff00" });
    const { data, info } = await sharp(result.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    const at = (x: number, y: number) => [...data.subarray((y * 100 + x) * 3, (y * 100 + x) * 3 + 3)];
    at(10, 50).forEach((v, i) => expect(Math.abs(v - [0, 255, 0][i]!)).toBeLessThan(8));
    at(90, 50).forEach((v, i) => expect(Math.abs(v - [200, 20, 20][i]!)).toBeLessThan(8));
  });

  it("keeps transparency with auto and picks a lossless format for a flat graphic", async () => {
    const logo = await transparentLogo();
    const result = await run(logo, { format: "auto" });
    expect(["png", "webp"]).toContain(result.format);
    expect(result.stats).toMatchObject({ lossless: true, quality: null });
    const decoded = await sharp(result.bytes).raw().toBuffer();
    expect(decoded.equals(await sharp(logo).raw().toBuffer())).toBe(true);
  });

  it.each([
    ["jpeg", true, [255, 255, 255]],
    ["jpeg", false, [255, 255, 255]],
    ["png", true, [0, 0, 0, 0]],
    ["png", false, [0, 0, 0, 0]],
  ] as const)("contain pads for %s (strip_metadata %s) with %o by default", async (format, strip_metadata, pad) => {
    const result = await run(photo, { width: 200, height: 200, fit: "contain", format, strip_metadata });
    expect([result.width, result.height]).toEqual([200, 200]);
    const { data, info } = await sharp(result.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(pad.length);
    [...data.subarray(0, info.channels)].forEach((v, i) => expect(Math.abs(v - pad[i]!)).toBeLessThan(4));
  });
});

describe("processImage max_bytes", () => {
  // Small, so that the brute-force reference search stays quick.
  const size = { width: 240, height: 180 };
  const raw = photoLikePixels(size.width, size.height, 9);
  let source: Uint8Array;
  beforeAll(async () => {
    source = new Uint8Array(await sharp(raw, { raw: { ...size, channels: 3 } }).png().toBuffer());
  });
  const encodeAt = (format: "jpeg" | "webp" | "avif", quality: number) =>
    encode(sharp(raw, { raw: { ...size, channels: 3 } }), { format, lossless: false, quality }, {
      mozjpeg: true,
      progressive: false,
      chroma_subsampling: "4:2:0",
      strip_metadata: true,
    });

  it("fits every lossy format at the quality a brute-force search finds, in few encodes", async () => {
    let encodes = 0;
    let searches = 0;
    for (const format of ["jpeg", "webp", "avif"] as const) {
      const sizes = new Map<number, number>();
      for (let q = MIN_SEARCH_QUALITY; q <= 76; q++) sizes.set(q, (await encodeAt(format, q)).byteLength);
      for (const fraction of [0.8, 0.55, 0.35]) {
        const maxBytes = Math.round((sizes.get(76) ?? 0) * fraction);
        const best = [...sizes].filter(([, size]) => size <= maxBytes).reduce((top, [q]) => Math.max(top, q), 0);
        const result = await run(source, { format, max_bytes: maxBytes });
        expect(result.format).toBe(format);
        expect(result.bytes.byteLength).toBeLessThanOrEqual(maxBytes);
        expect(result.stats.quality).not.toBeNull();
        expect(result.stats.quality).toBe(best);
        expect((await sharp(result.bytes).metadata()).width).toBe(size.width);
        encodes += result.stats.encodes;
        searches++;
      }
    }
    // A plain bisection needs 8 with the ceiling's encode; photos at 1600 px average about 4 (npm run bench:image).
    expect(encodes / searches).toBeLessThanOrEqual(5);
  });

  it("fits PNG by palette quantisation when lossless is too big", async () => {
    const lossless = await run(source, { format: "png" });
    expect(lossless.stats).toMatchObject({ lossless: true, quality: null, encodes: 1 });
    const maxBytes = Math.round(lossless.bytes.byteLength * 0.4);
    const result = await run(source, { format: "png", max_bytes: maxBytes });
    expect(result.bytes.byteLength).toBeLessThanOrEqual(maxBytes);
    expect(result.stats.lossless).toBe(false);
    expect(result.stats.encodes).toBeGreaterThan(1);
    expect((await sharp(result.bytes).metadata()).isPalette).toBe(true);
  });

  it("fits the format auto chose", async () => {
    const unconstrained = await run(source, { format: "auto" });
    const result = await run(source, { format: "auto", max_bytes: Math.round(unconstrained.bytes.byteLength * 0.6) });
    expect(result.format).toBe(unconstrained.format);
    expect(result.bytes.byteLength).toBeLessThanOrEqual(Math.round(unconstrained.bytes.byteLength * 0.6));
    expect(result.stats.encodes).toBeGreaterThan(unconstrained.stats.encodes);
  });

  it("answers 422 max_bytes_unreachable with the smallest size reached", async () => {
    const problem = await problemOf(run(source, { format: "jpeg", max_bytes: 500 }));
    expect(problem.slug).toBe("max_bytes_unreachable");
    expect(problem.status).toBe(422);
    expect(problem.extensions.smallest_bytes).toBe((await encodeAt("jpeg", MIN_SEARCH_QUALITY)).byteLength);
  });
});

describe("processImage input handling", () => {
  it("converts an AVIF source to JPEG with the picture intact", async () => {
    const result = await run(await generatedFile("photo.avif"), { format: "jpeg" });
    expect(result.stats.original_format).toBe("avif");
    expect([result.width, result.height]).toEqual([1204, 800]);
    expect(await pixelDistance(result.bytes, await generatedFile("photo.png"))).toBeLessThan(6);
  });

  it.each(["gif", "tiff"] as const)("uses the first frame of a multi-frame %s and says so", async (format) => {
    const frame = (colour: string) => sharp({ create: { width: 40, height: 30, channels: 3, background: colour } }).png().toBuffer();
    const joined = sharp([await frame("#ff0000"), await frame("#0000ff")], { join: { animated: true } });
    const input = await (format === "gif" ? joined.gif() : joined.tiff()).toBuffer();
    const result = await run(input, { format: "png" });
    expect(result.stats.first_frame_only).toBe(true);
    expect([result.width, result.height]).toEqual([40, 30]);
    (await meanColour(result.bytes)).forEach((v, i) => expect(Math.abs(v - [255, 0, 0][i]!)).toBeLessThan(2));
  });

  it.each([
    ["a truncated JPEG", () => Promise.resolve(photo.subarray(0, Math.floor(photo.byteLength / 2))), "image_unreadable", 422],
    [
      "a PNG with corrupt pixel data",
      async () => {
        const png = Buffer.from(await sharp(photoLikePixels(64, 64), { raw: { width: 64, height: 64, channels: 3 } }).png().toBuffer());
        const idat = png.indexOf("IDAT");
        png.fill(0xaa, idat + 40, idat + 400);
        return png;
      },
      "image_unreadable",
      422,
    ],
    ["a decompression bomb", () => Promise.resolve(pngHeaderBomb(60_000, 60_000)), "image_too_large", 413],
    ["text", () => Promise.resolve(new TextEncoder().encode("hello, not an image")), "unsupported_media_type", 415],
  ] as const)("refuses %s", async (_, make, slug, status) => {
    const problem = await problemOf(run(await make(), { format: "jpeg" }));
    expect(problem.slug).toBe(slug);
    expect(problem.status).toBe(status);
  });
});
