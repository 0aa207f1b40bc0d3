import { describe, expect, it } from "vitest";
import { blockSsim } from "./render-compare.ts";

const luma = (width: number, height: number, fn: (x: number, y: number) => number) => ({
  data: Uint8ClampedArray.from({ length: width * height }, (_, i) => fn(i % width, Math.floor(i / width))),
  width,
  height,
});

describe("blockSsim", () => {
  const texture = luma(64, 64, (x, y) => 128 + 60 * Math.sin(x / 3) * Math.cos(y / 5));

  it("is 1 for identical images and drops with noise and inversion", () => {
    expect(blockSsim(texture, texture)).toBeCloseTo(1, 10);
    const noisy = luma(64, 64, (x, y) => (texture.data[y * 64 + x] ?? 0) + (((x * 31 + y * 17) % 7) - 3) * 6);
    const inverted = luma(64, 64, (x, y) => 255 - (texture.data[y * 64 + x] ?? 0));
    const noisyScore = blockSsim(texture, noisy);
    expect(noisyScore).toBeLessThan(0.99);
    expect(noisyScore).toBeGreaterThan(0.5);
    expect(blockSsim(texture, inverted)).toBeLessThan(0);
  });
});
