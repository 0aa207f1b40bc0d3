// HEIC, JPEG XL and SVG through the real optimize and transform pipelines: each output is decoded
// and its pixels compared with what the original shows.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema, type ImageOptionsInput } from "../../contracts/image-options.ts";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { openOriginal } from "./open-original.ts";
import { processImage } from "./process-image.ts";
import { gridHeic } from "./test-support/heic-fixtures.ts";
import { photoLikePixels } from "./test-support/synthetic-images.ts";
import { loadTarget, transformImage } from "./transform-image.ts";

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, "../../test/fixtures/foreign-images", name)));
const optimize = (input: Uint8Array, options: ImageOptionsInput = {}) => processImage(input, imageOptionsSchema.parse(options));
const QUADRANTS = [
  [[0.125, 0.17], [220, 30, 30]],
  [[0.875, 0.17], [30, 200, 40]],
  [[0.125, 0.83], [30, 40, 220]],
  [[0.875, 0.83], [250, 250, 250]],
] as const;

async function quadrantError(bytes: Uint8Array): Promise<number> {
  const { data, info } = await sharp(bytes).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let worst = 0;
  for (const [[fx, fy], rgb] of QUADRANTS) {
    const at = (Math.floor(fy * info.height) * info.width + Math.floor(fx * info.width)) * 3;
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(data[at + c]! - rgb[c]!));
  }
  return worst;
}

/** Mean absolute difference per channel from the photo the HEIC and JPEG XL fixtures were made of. */
async function photoError(bytes: Uint8Array): Promise<number> {
  const expected = photoLikePixels(96, 64, 3);
  const { data } = await sharp(bytes).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < expected.length; i++) sum += Math.abs(data[i]! - expected[i]!);
  return sum / expected.length;
}

const logo = new TextEncoder().encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="16" viewBox="0 0 32 16"><rect width="16" height="16" fill="#1040c0"/></svg>`,
);

describe("optimize takes what phones and designers make", () => {
  it("turns a phone's HEIC photo into a JPEG of its pixels", async () => {
    const out = await optimize(fixture("photo.heic"));
    expect([out.format, out.width, out.height, out.stats.original_format]).toEqual(["jpeg", 96, 64, "heic"]);
    expect(out.stats.original_bytes).toBe(fixture("photo.heic").byteLength);
    // Two lossy encodes of fine texture; the same pixels mirrored (a decode the wrong way round) are far further off.
    expect(await photoError(out.bytes)).toBeLessThan(12);
    expect(await photoError(new Uint8Array(await sharp(out.bytes).flop().toBuffer()))).toBeGreaterThan(24);
  });

  it("keeps a HEIC's Display P3 colours, and sends a flat graphic to lossless PNG as it does a TIFF", async () => {
    const out = await optimize(fixture("quadrants-p3.heic"));
    expect([out.format, out.width, out.height]).toEqual(["png", 64, 48]);
    expect(await quadrantError(out.bytes)).toBeLessThanOrEqual(6);
  });

  it("turns a JPEG XL photo into a JPEG, and a lossless one into exactly its pixels", async () => {
    const jpeg = await optimize(fixture("photo.jxl"));
    expect([jpeg.format, jpeg.stats.original_format]).toEqual(["jpeg", "jxl"]);
    expect(await photoError(jpeg.bytes)).toBeLessThan(12);
    const lossless = await optimize(fixture("quadrants-lossless.jxl"), { format: "png" });
    expect(await quadrantError(lossless.bytes)).toBe(0);
  });

  it("draws an SVG into a PNG at the asked width, its transparency kept", async () => {
    const out = await optimize(logo, { width: 640 });
    expect([out.format, out.width, out.height, out.stats.original_format]).toEqual(["png", 640, 320, "svg"]);
    const { data, info } = await sharp(out.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number) => [...data.subarray((160 * info.width + x) * 4, (160 * info.width + x) * 4 + 4)];
    expect(pixel(100)).toEqual([16, 64, 192, 255]);
    expect(pixel(540)[3]).toBe(0);
    // Drawn at 640, not enlarged from 32: the edge between the halves is one pixel wide at most.
    const soft = Array.from({ length: 640 }, (_, x) => pixel(x)[3]!).filter((alpha) => alpha > 0 && alpha < 255);
    expect(soft.length).toBeLessThanOrEqual(1);
  });
});

describe("transforms take them too", () => {
  it("serves an SVG as PNG and a HEIC as JPEG for f_ left out", async () => {
    const transform = (input: Uint8Array, width: number) => transformImage(input, originTransformSchema.parse({ quality: 76, output: "source", width }));
    const svg = await transform(logo, 320);
    expect([svg.format, svg.width, svg.height]).toEqual(["png", 320, 160]);
    const heic = await transform(fixture("photo.heic"), 48);
    expect([heic.format, heic.width, heic.height]).toEqual(["jpeg", 48, 32]);
  });

  it("draws a quarter-turned SVG for its turned box, not for the box before the turn", async () => {
    // 32x16 turned is 16x32: 320 wide needs the drawing 320 high, or the turned output stops at 160.
    const out = await transformImage(logo, originTransformSchema.parse({ quality: 76, output: "png", width: 320, rotate: 90 }));
    expect([out.width, out.height]).toEqual([320, 640]);
  });
});

// A phone's 12 MP HEIC shown 1600 px wide need not be converted and resized at 12 MP: its planes
// convert at half size, as libjpeg decodes a JPEG at half size for sharp. The reply still reports
// the picture's own size, and nothing that keeps part of the picture gets the halved one.
describe("a HEIC decoded for an output at most half its size", () => {
  const photo = async () => gridHeic(new Uint8Array(await sharp(photoLikePixels(200, 120), { raw: { width: 200, height: 120, channels: 3 } }).png().toBuffer()), { tile: 64 }, ["-q", "90"]);

  it("is read at half size, and optimize reports the original's size and matches the whole-size output", async () => {
    const heic = await photo();
    const { source } = await openOriginal(heic, { width: 80, whole: true });
    expect([source.width, source.height, source.halvedFrom]).toEqual([100, 60, { width: 200, height: 120 }]);
    const halved = await optimize(heic, { width: 80, format: "png" });
    expect([halved.width, halved.height, halved.stats.original_width, halved.stats.original_height]).toEqual([80, 48, 200, 120]);
    // The whole-size path, through a PNG of the same decode: the two resizes differ by resampling only.
    const whole = new Uint8Array(await sharp((await openOriginal(heic)).input).png().toBuffer());
    const reference = await optimize(whole, { width: 80, format: "png" });
    const pixels = async (bytes: Uint8Array) => sharp(bytes).removeAlpha().raw().toBuffer();
    const [a, b] = [await pixels(halved.bytes), await pixels(reference.bytes)];
    let total = 0;
    for (let i = 0; i < a.length; i++) total += Math.abs(a[i]! - b[i]!);
    expect(total / a.length).toBeLessThan(2);
  });

  it("is read whole for a quarter turn whose turned box needs more than half", async () => {
    // Turned, the picture is 120 wide: 90 of it needs more than half, though 90 is under half its stored 200.
    const out = await transformImage(await photo(), originTransformSchema.parse({ quality: 76, output: "png", width: 90, rotate: 90 }));
    expect([out.width, out.height]).toEqual([90, 150]);
  });

  it("keeps the whole picture for a crop, a trim, a face's cover crop or the facts, and turns the box with a quarter turn", () => {
    const target = (options: Record<string, unknown>) => loadTarget(originTransformSchema.parse({ quality: 76, output: "png", ...options }));
    expect(target({ width: 50 })).toEqual({ width: 50, height: undefined, whole: true });
    expect(target({ width: 50, rotate: 270 })).toEqual({ width: undefined, height: 50, whole: true });
    expect(target({ width: 50, crop: { x: 0, y: 0, width: 20, height: 20 } })).toEqual({});
    expect(target({ width: 50, trim: 10 }).whole).toBe(false);
    expect(target({ width: 50, height: 50, fit: "cover", gravity: "face" }).whole).toBe(false);
    expect(target({ width: 50, facts: true }).whole).toBe(false);
  });
});
