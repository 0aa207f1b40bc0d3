import { describe, expect, it } from "vitest";
import type { Bitmap } from "./bitmap.ts";
import { findComponents } from "./connected-components.ts";
import { noisePage } from "./test-support/bilevel-pages.ts";
import { unpackBitmap } from "./bitmap.ts";

function bitmapOf(rows: string[]): Bitmap {
  const width = rows[0]?.length ?? 0;
  return { width, height: rows.length, pixels: Uint8Array.from(rows.join(""), (char) => (char === "#" ? 1 : 0)) };
}

function redraw(page: Bitmap): Uint8Array {
  const pixels = new Uint8Array(page.width * page.height);
  for (const { x, y, bitmap } of findComponents(page)) {
    for (let row = 0; row < bitmap.height; row++) {
      for (let column = 0; column < bitmap.width; column++) {
        if (bitmap.pixels[row * bitmap.width + column] === 1) pixels[(y + row) * page.width + x + column] = (pixels[(y + row) * page.width + x + column] as number) + 1;
      }
    }
  }
  return pixels;
}

describe("findComponents", () => {
  it("joins diagonal neighbours, separates gaps, and keeps other components' pixels out of a bounding box", () => {
    const page = bitmapOf([
      "#.....##", //
      ".#...#..",
      "..#.#...",
      "........",
      "##.#.#.#",
    ]);
    const components = findComponents(page);
    expect(components.map(({ x, y, bitmap }) => [x, y, bitmap.width, bitmap.height])).toEqual([
      [0, 0, 3, 3],
      [4, 0, 4, 3],
      [0, 4, 2, 1],
      [3, 4, 1, 1],
      [5, 4, 1, 1],
      [7, 4, 1, 1],
    ]);
    const vee = findComponents(bitmapOf(["#...#", ".#.#.", "..#.."]));
    expect(vee).toHaveLength(1);
  });

  it("assigns every black pixel of a noisy page to exactly one component", () => {
    const page = unpackBitmap(noisePage(311, 157, 0.45));
    expect(redraw(page)).toEqual(page.pixels);
  });
});
