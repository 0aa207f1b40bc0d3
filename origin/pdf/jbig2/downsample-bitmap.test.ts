import { describe, expect, it } from "vitest";
import { packBitmap, packedStride, unpackBitmap } from "./bitmap.ts";
import type { PackedBitmap } from "./bitmap.ts";
import { downsampleBitmap } from "./downsample-bitmap.ts";

function bitmapOf(width: number, height: number, inked: (x: number, y: number) => boolean) {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = inked(x, y) ? 1 : 0;
  return packBitmap({ width, height, pixels });
}

describe("downsampleBitmap", () => {
  it("keeps a solid block, its edges at the scaled position", () => {
    const source = bitmapOf(400, 300, (x, y) => x >= 100 && x < 300 && y >= 60 && y < 240);
    const out = unpackBitmap(downsampleBitmap(source, 100, 75));
    for (let y = 0; y < 75; y++) {
      for (let x = 0; x < 100; x++) expect(out.pixels[y * 100 + x], `${x},${y}`).toBe(x >= 25 && x < 75 && y >= 15 && y < 60 ? 1 : 0);
    }
  });

  it("inks a pixel when a third of its footprint is ink, not when less", () => {
    // 4x4 footprints: 6 of 16 inked in the first, 5 in the second.
    const source = bitmapOf(8, 4, (x, y) => (x < 1 || (x === 1 && y < 2)) || (x === 4 || (x === 5 && y === 0)));
    const out = unpackBitmap(downsampleBitmap(source, 2, 1));
    expect([...out.pixels]).toEqual([1, 0]);
  });

  it("keeps a stroke three source pixels wide at a 4x reduction as a continuous line, not dots", () => {
    const source = bitmapOf(1203, 401, (x, y) => Math.abs(y - 200 - Math.round((x - 600) / 10)) <= 1);
    const out = unpackBitmap(downsampleBitmap(source, 301, 101));
    for (let x = 5; x < 296; x++) {
      let column = 0;
      for (let y = 0; y < 101; y++) column += out.pixels[y * 301 + x] as number;
      expect(column, `column ${x}`).toBeGreaterThan(0);
    }
  });

  it("covers every source row and column exactly once, whatever the ratio", () => {
    for (const [w, h] of [[7, 5], [1, 1], [33, 17]] as const) {
      const source = bitmapOf(97, 61, () => true);
      const out = unpackBitmap(downsampleBitmap(source, w, h));
      expect(out.pixels.every((pixel) => pixel === 1)).toBe(true);
    }
  });

  it("inks exactly the pixels whose footprint is a third ink, counted pixel by pixel, and ignores the padding bits of each row", () => {
    // Pseudo-random sparse and dense bitmaps, widths off the byte grid, rows padded with ink bits.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (const [sw, sh, w, h, density] of [[203, 97, 50, 24, 0.05], [61, 40, 17, 13, 0.4], [8, 8, 3, 3, 0.5], [1001, 33, 999, 31, 0.2]] as const) {
      const source = bitmapOf(sw, sh, () => random() < density);
      const padded: PackedBitmap = { ...source, rows: source.rows.slice() };
      const stride = packedStride(sw);
      for (let y = 0; y < sh; y++) padded.rows[y * stride + stride - 1] = (padded.rows[y * stride + stride - 1] as number) | (0xff >> (sw - (stride - 1) * 8));
      const expected = countedPixelByPixel(unpackBitmap(source).pixels, sw, sh, w, h);
      expect([...unpackBitmap(downsampleBitmap(padded, w, h)).pixels], `${sw}x${sh} to ${w}x${h}`).toEqual(expected);
    }
  });
});

/** The rule as stated: each output pixel covers the source pixels mapped to it, and is ink when a third of them are. */
function countedPixelByPixel(pixels: Uint8Array, sw: number, sh: number, w: number, h: number): number[] {
  const ink = new Array<number>(w * h).fill(0);
  const total = new Array<number>(w * h).fill(0);
  const rowOf = (sy: number) => {
    for (let y = 0; y < h; y++) if (sy < (y === h - 1 ? sh : Math.floor(((y + 1) * sh) / h))) return y;
    return h - 1;
  };
  for (let sy = 0; sy < sh; sy++) {
    for (let sx = 0; sx < sw; sx++) {
      const index = rowOf(sy) * w + Math.min(w - 1, Math.floor((sx * w) / sw));
      total[index]!++;
      ink[index]! += pixels[sy * sw + sx]!;
    }
  }
  return ink.map((count, index) => (count > 0 && count * 3 >= total[index]! ? 1 : 0));
}
