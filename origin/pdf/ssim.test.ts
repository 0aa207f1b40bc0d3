import { describe, expect, it } from "vitest";
import { ssim } from "./ssim.ts";

const luma = (width: number, height: number, fn: (x: number, y: number) => number) => ({
  data: Uint8ClampedArray.from({ length: width * height }, (_, i) => fn(i % width, Math.floor(i / width))),
  width,
  height,
});

describe("ssim", () => {
  const texture = luma(64, 64, (x, y) => 128 + 60 * Math.sin(x / 3) * Math.cos(y / 5));
  const at = (x: number, y: number) => texture.data[y * 64 + x] ?? 0;

  it("is 1 for identical images and drops with noise and inversion", () => {
    expect(ssim(texture, texture)).toBeCloseTo(1, 10);
    const noisy = luma(64, 64, (x, y) => at(x, y) + (((x * 31 + y * 17) % 7) - 3) * 6);
    const inverted = luma(64, 64, (x, y) => 255 - at(x, y));
    const noisyScore = ssim(texture, noisy);
    expect(noisyScore).toBeLessThan(0.99);
    expect(noisyScore).toBeGreaterThan(0.5);
    expect(ssim(texture, inverted)).toBeLessThan(0);
  });

  it("ranks a mild blur above a strong one", () => {
    const box = (r: number) =>
      luma(64, 64, (x, y) => {
        let sum = 0;
        let n = 0;
        for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
          sum += at(Math.min(63, Math.max(0, x + dx)), Math.min(63, Math.max(0, y + dy)));
          n++;
        }
        return sum / n;
      });
    const mild = ssim(texture, box(1));
    const strong = ssim(texture, box(3));
    expect(mild).toBeGreaterThan(strong);
    expect(mild).toBeLessThan(1);
  });

  it("handles images smaller than the 11x11 window and rejects unequal sizes", () => {
    const tiny = luma(4, 4, (x, y) => x * 40 + y * 10);
    expect(ssim(tiny, tiny)).toBeCloseTo(1, 10);
    expect(ssim(tiny, luma(4, 4, (x, y) => 255 - x * 40 - y * 10))).toBeLessThan(0);
    expect(() => ssim(tiny, texture)).toThrow(/equal sizes/);
  });

  it("matches the closed form on a constant shift, where only the luminance term drops", () => {
    const flat = luma(32, 32, () => 100);
    const shifted = luma(32, 32, () => 120);
    const c1 = (0.01 * 255) ** 2;
    expect(ssim(flat, shifted)).toBeCloseTo((2 * 100 * 120 + c1) / (100 * 100 + 120 * 120 + c1), 10);
  });

  it("scores a local change the same whether or not the untouched area is filtered", () => {
    const page = luma(120, 90, (x, y) => 128 + 60 * Math.sin(x / 4) * Math.cos(y / 6));
    const patched = luma(120, 90, (x, y) => (x >= 50 && x < 60 && y >= 40 && y < 45 ? 30 : (page.data[y * 120 + x] ?? 0)));
    const crop = (image: typeof page) => luma(30, 25, (x, y) => image.data[(y + 30) * 120 + x + 40] ?? 0);
    const whole = ssim(page, patched);
    expect(whole).toBeLessThan(1);
    // The 30x25 crop holds every window that touches the patch: its SSIM deficit, spread
    // over the page's windows instead of the crop's, must equal the page's deficit.
    const cropWindows = (30 - 10) * (25 - 10);
    const pageWindows = (120 - 10) * (90 - 10);
    expect(1 - whole).toBeCloseTo(((1 - ssim(crop(page), crop(patched))) * cropWindows) / pageWindows, 12);
  });
});
