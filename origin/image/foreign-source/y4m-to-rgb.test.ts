import { describe, expect, it } from "vitest";
import type { YcbcrMatrix } from "./heif-layout.ts";
import { halvedSize, y4mFrame, ycbcrToRgb, ycbcrToRgbHalved, type YcbcrFrame } from "./y4m-to-rgb.ts";

const BT601_FULL = { kr: 0.299, kb: 0.114, fullRange: true };
const BT709_LIMITED = { kr: 0.2126, kb: 0.0722, fullRange: false };

function rgbOf(frame: YcbcrFrame, matrix: YcbcrMatrix) {
  const data = new Uint8Array(frame.width * frame.height * 3);
  ycbcrToRgb(frame, matrix, data);
  return { data, width: frame.width, height: frame.height, channels: 3 };
}
const y4mToRgb = (y4m: Uint8Array, matrix: YcbcrMatrix) => rgbOf(y4mFrame(y4m), matrix);

/** A 2x2 y4m frame: one chroma sample for all four pixels, each pixel its own luma. */
function frame(luma: [number, number, number, number], cb: number, cr: number, header = "YUV4MPEG2 W2 H2 F30:1 Ip A0:0 C420jpeg"): Uint8Array {
  return new Uint8Array([...Buffer.from(`${header}\nFRAME\n`, "latin1"), ...luma, cb, cr]);
}

const near = (actual: number[], expected: number[]) => actual.every((value, i) => Math.abs(value - expected[i]!) <= 1);

describe("y4mToRgb", () => {
  it("converts full-range BT.601 (libheif's default) and shares the chroma sample over its 2x2 block", () => {
    const { data, width, height, channels } = y4mToRgb(frame([76, 76, 0, 255], 85, 255), BT601_FULL);
    expect([width, height, channels]).toEqual([2, 2, 3]);
    expect(near([...data.subarray(0, 3)], [254, 0, 0]), [...data.subarray(0, 3)].join(",")).toBe(true);
    // The same chroma on black and white luma clamps into range rather than wrapping.
    expect([...data.subarray(6, 9)].every((value) => value >= 0 && value <= 255)).toBe(true);
    expect(data[9]).toBe(255);
  });

  it("converts limited-range BT.709 from its own scale", () => {
    const black = y4mToRgb(frame([16, 16, 16, 16], 128, 128), BT709_LIMITED);
    expect([...black.data.subarray(0, 3)]).toEqual([0, 0, 0]);
    const white = y4mToRgb(frame([235, 235, 235, 235], 128, 128), BT709_LIMITED);
    expect([...white.data.subarray(0, 3)]).toEqual([255, 255, 255]);
    const red = y4mToRgb(frame([63, 63, 63, 63], 102, 240), BT709_LIMITED);
    expect(near([...red.data.subarray(0, 3)], [255, 0, 0]), [...red.data.subarray(0, 3)].join(",")).toBe(true);
  });

  it("gives an odd last column and row the chroma of their block, and reads planes wider than the picture by their stride", () => {
    // 3x3 luma, 2x2 chroma; the planes are stored 4 and 3 samples wide (a padded decoder output),
    // the padding set to values that would show if read.
    const luma = [10, 20, 30, 99, 40, 50, 60, 99, 70, 80, 90, 99];
    const cb = [100, 140, 0, 120, 160, 0];
    const cr = [150, 110, 255, 130, 170, 255];
    const image = rgbOf({ width: 3, height: 3, luma: new Uint8Array(luma), lumaStride: 4, cb: new Uint8Array(cb), cr: new Uint8Array(cr), chromaStride: 3 }, BT601_FULL);
    // Each pixel against the full-range BT.601 formula with its block's chroma sample.
    for (let y = 0; y < 3; y++) {
      for (let x = 0; x < 3; x++) {
        const [l, u, v] = [luma[y * 4 + x]!, cb[(y >> 1) * 3 + (x >> 1)]! - 128, cr[(y >> 1) * 3 + (x >> 1)]! - 128];
        const expected = [l + 1.402 * v, l - 0.344136 * u - 0.714136 * v, l + 1.772 * u].map((value) => Math.min(255, Math.max(0, value)));
        const actual = [...image.data.subarray((y * 3 + x) * 3, (y * 3 + x) * 3 + 3)];
        expect(near(actual, expected), `${actual.join(",")} at ${x},${y}`).toBe(true);
      }
    }
  });

  it("refuses a frame that is not 4:2:0 or is cut short with a 422", () => {
    expect(() => y4mToRgb(frame([0, 0, 0, 0], 128, 128, "YUV4MPEG2 W2 H2 F30:1 C444"), BT601_FULL)).toThrow(expect.objectContaining({ slug: "image_unreadable" }));
    expect(() => y4mToRgb(frame([0, 0, 0, 0], 128, 128).subarray(0, 40), BT601_FULL)).toThrow(expect.objectContaining({ slug: "image_unreadable" }));
  });
});

describe("ycbcrToRgbHalved", () => {
  it("gives each chroma sample one pixel: its block's luma averaged, an odd edge's block from the samples it has", () => {
    // The 3x3 frame of the test above: 2x2 out, the right column and bottom row blocks cut by the edge.
    const luma = [10, 20, 30, 99, 40, 50, 60, 99, 70, 80, 90, 99];
    const cb = [100, 140, 0, 120, 160, 0];
    const cr = [150, 110, 255, 130, 170, 255];
    const frame = { width: 3, height: 3, luma: new Uint8Array(luma), lumaStride: 4, cb: new Uint8Array(cb), cr: new Uint8Array(cr), chromaStride: 3 };
    expect(halvedSize(frame)).toEqual({ width: 2, height: 2 });
    const data = new Uint8Array(2 * 2 * 3);
    ycbcrToRgbHalved(frame, BT601_FULL, data);
    const blocks = [[10, 20, 40, 50], [30, 60], [70, 80], [90]];
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 2; x++) {
        const samples = blocks[y * 2 + x]!;
        const l = samples.reduce((sum, value) => sum + value, 0) / samples.length;
        const [u, v] = [cb[y * 3 + x]! - 128, cr[y * 3 + x]! - 128];
        const expected = [l + 1.402 * v, l - 0.344136 * u - 0.714136 * v, l + 1.772 * u].map((value) => Math.min(255, Math.max(0, value)));
        const actual = [...data.subarray((y * 2 + x) * 3, (y * 2 + x) * 3 + 3)];
        expect(near(actual, expected), `${actual.join(",")} at ${x},${y}`).toBe(true);
      }
    }
  });

  it("matches the whole-size conversion averaged over each 2x2 block, within rounding", () => {
    const [width, height] = [33, 17];
    const chromaStride = Math.ceil(width / 2);
    const chromaSize = chromaStride * Math.ceil(height / 2);
    // Within the range where no channel clamps: there averaging before the conversion or after it is the same sum.
    const wave = (i: number, period: number, amplitude: number) => Math.round(128 + amplitude * Math.sin(i / period));
    const frame = {
      width,
      height,
      luma: Uint8Array.from({ length: width * height }, (_, i) => wave(i, 7, 60)),
      lumaStride: width,
      cb: Uint8Array.from({ length: chromaSize }, (_, i) => wave(i, 5, 25)),
      cr: Uint8Array.from({ length: chromaSize }, (_, i) => wave(i, 3, 25)),
      chromaStride,
    };
    const whole = rgbOf(frame, BT709_LIMITED);
    const half = halvedSize(frame);
    const halved = new Uint8Array(half.width * half.height * 3);
    ycbcrToRgbHalved(frame, BT709_LIMITED, halved);
    let worst = 0;
    for (let y = 0; y < half.height; y++) {
      for (let x = 0; x < half.width; x++) {
        const pixels = [[2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]].filter(([px, py]) => px! < width && py! < height);
        for (let channel = 0; channel < 3; channel++) {
          const mean = pixels.reduce((sum, [px, py]) => sum + whole.data[(py! * width + px!) * 3 + channel]!, 0) / pixels.length;
          worst = Math.max(worst, Math.abs(halved[(y * half.width + x) * 3 + channel]! - mean));
        }
      }
    }
    // The block's luma is rounded to a sample before limited range's 255/219 scale: half a sample is 0.58.
    expect(worst).toBeLessThanOrEqual(1.5);
  });
});
