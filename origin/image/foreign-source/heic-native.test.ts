// The native decoder against the WebAssembly one it replaces, on what phones write: generated
// here (sharp makes the pixels, Debian's heif-enc encodes, heic-fixtures assembles grids and
// rotations). Both must agree pixel for pixel within the colour conversion's rounding.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { runWithTicket } from "../../worker-pool/deadline.ts";
import { gridHeic, heicItems, heifEnc, heifEncPresent } from "../test-support/heic-fixtures.ts";
import { photoLikePixels } from "../test-support/synthetic-images.ts";
import { ffmpegCommand } from "../video/ffmpeg.ts";
import { chooseHeicDecoder } from "./heic.ts";
import { heicTools, nativeHeicToPng, nativeHeifConvertPresent, type HeicTools } from "./heic-native.ts";
import { wasmHeicToPng } from "./heic-wasm.ts";
import { heifLayout, withPrimaryOnly } from "./heif-layout.ts";

if (!heifEncPresent() || !nativeHeifConvertPresent() || heicTools().ffmpeg === null) {
  throw new Error("These tests need Debian's libheif-examples (heif-enc, heif-convert) and ffmpeg: apt-get install -y libheif-examples ffmpeg (.ci/run does).");
}

const pngOf = async (raw: Buffer, width: number, height: number, channels: 3 | 4 = 3) =>
  new Uint8Array(await sharp(raw, { raw: { width, height, channels } }).png().toBuffer());

/** Four flat quadrants, so where each lands shows the orientation. */
async function quadrants(width: number, height: number): Promise<Uint8Array> {
  const half = (colour: [number, number, number]) => ({ create: { width: width / 2, height: height / 2, channels: 3 as const, background: { r: colour[0], g: colour[1], b: colour[2] } } });
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: "#fafafa" } })
      .composite([
        { input: half([220, 30, 30]), left: 0, top: 0 },
        { input: half([30, 200, 40]), left: width / 2, top: 0 },
        { input: half([30, 40, 220]), left: 0, top: height / 2 },
      ])
      .removeAlpha()
      .png()
      .toBuffer(),
  );
}

interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}
const decoded = async (png: Uint8Array): Promise<Decoded> => {
  const { data, info } = await sharp(png).toColourspace("srgb").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
};

/** Both decoders' output: same size and channels, every sample within `tolerance`, the mean within `meanTolerance`. */
async function expectSamePixels(heic: Uint8Array, tolerance: number, meanTolerance = 0.5, tools?: HeicTools): Promise<Decoded> {
  const native = await decoded((await nativeHeicToPng(heic, 100_000_000, {}, tools)).png);
  const wasm = await decoded(await wasmHeicToPng(heic, 100_000_000));
  expect([native.width, native.height, native.channels]).toEqual([wasm.width, wasm.height, wasm.channels]);
  let worst = 0;
  let total = 0;
  for (let i = 0; i < native.data.length; i++) {
    const difference = Math.abs(native.data[i]! - wasm.data[i]!);
    worst = Math.max(worst, difference);
    total += difference;
  }
  expect(worst).toBeLessThanOrEqual(tolerance);
  expect(total / native.data.length).toBeLessThan(meanTolerance);
  return native;
}

const pixel = (image: Decoded, x: number, y: number) => [...image.data.subarray((y * image.width + x) * image.channels, (y * image.width + x) * image.channels + 3)];
const near = (actual: number[], expected: number[]) => actual.every((value, i) => Math.abs(value - expected[i]!) <= 8);

describe("nativeHeicToPng against the WebAssembly decoder", () => {
  it("decodes a single-image HEIC to the same pixels", async () => {
    const heic = heifEnc([await pngOf(photoLikePixels(192, 128), 192, 128)], ["-q", "80"]);
    const image = await expectSamePixels(heic, 3);
    expect([image.width, image.height]).toEqual([192, 128]);
  });

  it("keeps alpha", async () => {
    const raw = Buffer.alloc(96 * 64 * 4);
    for (let i = 0; i < 96 * 64; i++) raw.set([200, 60, 20, i % 96 < 48 ? 255 : 64], i * 4);
    const image = await expectSamePixels(heifEnc([await pngOf(raw, 96, 64, 4)], ["-q", "90"]), 3);
    expect(image.channels).toBe(4);
    expect(image.data[3]).toBeGreaterThan(250);
    expect(image.data[(10 * 96 + 80) * 4 + 3]).toBeLessThan(80);
  });

  it("decodes a 10-bit HEIC", async () => {
    const png16 = new Uint8Array(await sharp(photoLikePixels(128, 96), { raw: { width: 128, height: 96, channels: 3 } }).toColourspace("rgb16").png().toBuffer());
    const heic = heifEnc([png16], ["-q", "90", "-b", "10"]);
    // hvcC says 10 bits a sample, so the native decoder takes its PNG path, not the planes.
    expect(heifLayout(heic).phonePlanes).toBe(false);
    // The native tool writes 16 bits a sample, rounded to 8 here; the WebAssembly build truncates to 8.
    await expectSamePixels(heic, 2, 1);
  });

  it("decodes a burst's primary picture only", async () => {
    const flat = (r: number, g: number, b: number) => pngOf(Buffer.from(Array.from({ length: 64 * 64 }, () => [r, g, b]).flat()), 64, 64);
    const heic = heifEnc([await flat(220, 30, 30), await flat(30, 200, 40), await flat(30, 40, 220)], ["-q", "90"]);
    expect(heicItems(heic).filter((item) => !item.hidden)).toHaveLength(3);
    expect(heicItems(withPrimaryOnly(heic)).filter((item) => !item.hidden)).toHaveLength(1);
    const image = await expectSamePixels(heic, 2);
    expect(near(pixel(image, 32, 32), [220, 30, 30])).toBe(true);
  });
});

// A phone's grid goes to ffmpeg when it runs (heic-grid.ts), to heif-convert without it: both
// must give the WebAssembly decoder's picture, rotation included.
describe.each([
  ["ffmpeg", { ffmpeg: ffmpegCommand() }],
  ["heif-convert, ffmpeg absent", { ffmpeg: null }],
])("a grid through %s", (_name, tools: HeicTools) => {
  it("decodes a grid of tiles, as phones write, to the same whole picture", async () => {
    const source = await pngOf(photoLikePixels(300, 200), 300, 200);
    const heic = await gridHeic(source, { tile: 128 }, ["-q", "85"]);
    expect(heicItems(heic).filter((item) => item.type === "hvc1")).toHaveLength(6);
    const image = await expectSamePixels(heic, 3, 0.5, tools);
    expect([image.width, image.height]).toEqual([300, 200]);
    // The tiles are in their places: the grid's picture is the source's, within the lossy encode.
    const reference = await decoded(source);
    let total = 0;
    for (let i = 0; i < image.data.length; i++) total += Math.abs(image.data[i]! - reference.data[i]!);
    expect(total / image.data.length).toBeLessThan(4);
  });

  it("applies the container's rotation once (its EXIF orientation repeats it), upright like the WebAssembly decoder", async () => {
    const heic = await gridHeic(await quadrants(128, 64), { tile: 64, orientation: 6 }, ["-q", "90"]);
    // Chroma is shared by 2x2 blocks: samples at the quadrants' edges differ by the upsampling.
    const image = await expectSamePixels(heic, 12, 0.5, tools);
    // Orientation 6 turns the picture a quarter clockwise: its top-left (red) lands top-right.
    expect([image.width, image.height]).toEqual([64, 128]);
    expect(near(pixel(image, 48, 16), [220, 30, 30]), pixel(image, 48, 16).join(",")).toBe(true);
    expect(near(pixel(image, 16, 16), [30, 40, 220]), pixel(image, 16, 16).join(",")).toBe(true);
    expect(near(pixel(image, 48, 112), [30, 200, 40]), pixel(image, 48, 112).join(",")).toBe(true);
  });

  it.each([3, 8] as const)("turns a grid with orientation %i as the WebAssembly decoder does", async (orientation) => {
    const heic = await gridHeic(await quadrants(128, 64), { tile: 64, orientation }, ["-q", "90"]);
    const image = await expectSamePixels(heic, 12, 0.5, tools);
    expect([image.width, image.height]).toEqual(orientation === 3 ? [128, 64] : [64, 128]);
  });
});

/** Each 2x2 block of `image` averaged: what a picture decoded at half size should hold. */
function blockMeans(image: Decoded): Decoded {
  const [width, height] = [Math.ceil(image.width / 2), Math.ceil(image.height / 2)];
  const data = Buffer.alloc(width * height * image.channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let channel = 0; channel < image.channels; channel++) {
        const xs = [2 * x, Math.min(2 * x + 1, image.width - 1)];
        const ys = [2 * y, Math.min(2 * y + 1, image.height - 1)];
        const sum = ys.reduce((total, py) => total + xs.reduce((row, px) => row + image.data[(py * image.width + px) * image.channels + channel]!, 0), 0);
        data[(y * width + x) * image.channels + channel] = Math.round(sum / 4);
      }
    }
  }
  return { data, width, height, channels: image.channels };
}

// An output at most half the picture's size on every side asked, the whole picture resized into
// it: the planes convert at half size, a quarter of the pixels for the pipeline to read.
describe.each([
  ["ffmpeg", { ffmpeg: ffmpegCommand() }],
  ["heif-convert, ffmpeg absent", { ffmpeg: null }],
])("a picture decoded for a box at most half its size, through %s", (_name, tools: HeicTools) => {
  it("delivers the whole picture halved, each pixel its 2x2 block's mean, and says from what size", async () => {
    const heic = await gridHeic(await pngOf(photoLikePixels(302, 202), 302, 202), { tile: 128 }, ["-q", "85"]);
    const halved = await nativeHeicToPng(heic, 100_000_000, { width: 151, whole: true }, tools);
    expect(halved.halvedFrom).toEqual({ width: 302, height: 202 });
    const image = await decoded(halved.png);
    const expected = blockMeans(await decoded((await nativeHeicToPng(heic, 100_000_000, {}, tools)).png));
    expect([image.width, image.height]).toEqual([expected.width, expected.height]);
    let total = 0;
    for (let i = 0; i < image.data.length; i++) total += Math.abs(image.data[i]! - expected.data[i]!);
    expect(total / image.data.length).toBeLessThan(1.5);
  });

  it("keeps the whole size when the box needs more than half, or when part of the picture is kept", async () => {
    const heic = await gridHeic(await pngOf(photoLikePixels(300, 200), 300, 200), { tile: 128 }, ["-q", "85"]);
    for (const target of [{ width: 151, whole: true }, { height: 101, whole: true }, { width: 100 }, { width: 150, height: 101, whole: true }]) {
      const { png, halvedFrom } = await nativeHeicToPng(heic, 100_000_000, target, tools);
      expect(halvedFrom, JSON.stringify(target)).toBeNull();
      expect((await sharp(png).metadata()).width, JSON.stringify(target)).toBe(300);
    }
  });

  it("halves the upright picture: a turned grid's box is read against its turned size", async () => {
    // 128x64 turned a quarter by orientation 6: upright 64x128, so a box 32 wide halves it and one 40 wide does not.
    const heic = await gridHeic(await quadrants(128, 64), { tile: 64, orientation: 6 }, ["-q", "90"]);
    const halved = await nativeHeicToPng(heic, 100_000_000, { width: 32, whole: true }, tools);
    expect(halved.halvedFrom).toEqual({ width: 64, height: 128 });
    const image = await decoded(halved.png);
    expect([image.width, image.height]).toEqual([32, 64]);
    expect(near(pixel(image, 24, 8), [220, 30, 30]), pixel(image, 24, 8).join(",")).toBe(true);
    expect(near(pixel(image, 8, 8), [30, 40, 220]), pixel(image, 8, 8).join(",")).toBe(true);
    expect((await nativeHeicToPng(heic, 100_000_000, { width: 40, whole: true }, tools)).halvedFrom).toBeNull();
  });
});

describe("nativeHeicToPng's grid decoder", () => {
  it("hands a phone's grid to the ffmpeg it is given, and a single image to heif-convert", async () => {
    const missing = { ffmpeg: join(mkdtempSync(join(tmpdir(), "pixelpress-no-ffmpeg-")), "ffmpeg") };
    const grid = await gridHeic(await quadrants(128, 64), { tile: 64 });
    await expect(nativeHeicToPng(grid, 100_000_000, {}, missing)).rejects.toMatchObject({ slug: "image_unreadable" });
    const single = heifEnc([await pngOf(photoLikePixels(64, 64), 64, 64)]);
    expect((await sharp((await nativeHeicToPng(single, 100_000_000, {}, missing)).png).metadata()).width).toBe(64);
  });

  it("refuses a grid whose tiles hold more than the pixel limit, though its picture is within it", async () => {
    // 128x64 cut into 64 px tiles is exactly covered; 100x64 is cropped from the same two tiles.
    const heic = await gridHeic(await quadrants(100, 64), { tile: 64 });
    await expect(nativeHeicToPng(heic, 100 * 64, {}, { ffmpeg: ffmpegCommand() })).rejects.toMatchObject({ slug: "image_too_large" });
    expect((await sharp((await nativeHeicToPng(heic, 128 * 64, {}, { ffmpeg: ffmpegCommand() })).png).metadata()).width).toBe(100);
  });
});

describe("nativeHeicToPng's limits", () => {
  it("stops before decoding when the call's deadline has passed", async () => {
    const heic = heifEnc([await pngOf(photoLikePixels(64, 64), 64, 64)]);
    await expect(runWithTicket({ deadlineAt: Date.now() - 1 }, () => nativeHeicToPng(heic, 100_000_000))).rejects.toMatchObject({ slug: "processing_timeout" });
  });

  it("refuses a grid larger than the pixel limit from its declared size", async () => {
    const heic = await gridHeic(await quadrants(128, 64), { tile: 64 });
    await expect(nativeHeicToPng(heic, 128 * 64 - 1)).rejects.toMatchObject({ slug: "image_too_large", status: 413 });
  });
});

describe("chooseHeicDecoder", () => {
  it("uses the native tool when it runs, and libheif in WebAssembly without it or when told", () => {
    expect(chooseHeicDecoder(process.env)).toBe("native");
    expect(chooseHeicDecoder({ ...process.env, PIXELPRESS_HEIC_DECODER: "wasm" })).toBe("wasm");
    expect(chooseHeicDecoder({ ...process.env, PATH: mkdtempSync(join(tmpdir(), "pixelpress-empty-path-")) })).toBe("wasm");
  });
});
