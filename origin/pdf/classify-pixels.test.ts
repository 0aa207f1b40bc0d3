import { describe, expect, it } from "vitest";
import { classifyPixels } from "./classify-pixels.ts";
import { photoPixels } from "./test-support/generate-pdf.ts";

const image = (data: Uint8Array, width: number, height: number, channels: 1 | 3) => ({ data, width, height, channels });

describe("classifyPixels", () => {
  it("calls a few flat colour areas flat", () => {
    const bars = new Uint8Array(400 * 300).map((_, i) => ((i % 400) < 200 ? 30 : 220));
    expect(classifyPixels(image(bars, 400, 300, 1))).toBe("flat");
  });

  it("calls noisy gradients a photo", () => {
    expect(classifyPixels(image(photoPixels(400, 300, 3), 400, 300, 3))).toBe("photo");
  });

  it("calls many colours in long runs line art, and few colours without runs too", () => {
    // 3000 runs of 40 pixels, each its own colour.
    const runs = new Uint8Array(400 * 300 * 3).map((_, i) => {
      const run = Math.floor(i / 3 / 40);
      return i % 3 === 0 ? run % 251 : i % 3 === 1 ? (run * 7) % 253 : 0;
    });
    expect(classifyPixels(image(runs, 400, 300, 3))).toBe("line-art");
    const dither = new Uint8Array(400 * 300).map((_, i) => ((i * 7919) % 13) * 19);
    expect(classifyPixels(image(dither, 400, 300, 1))).toBe("line-art");
  });
});
