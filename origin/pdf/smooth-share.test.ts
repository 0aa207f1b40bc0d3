import { describe, expect, it } from "vitest";
import type { RawPixels } from "./raw-pixels.ts";
import { smoothShare } from "./smooth-share.ts";
import { photoPixels } from "./test-support/generate-pdf.ts";

const WIDTH = 320;
const HEIGHT = 200;

function image(channels: RawPixels["channels"], value: (x: number, y: number, channel: number) => number): RawPixels {
  const data = new Uint8Array(WIDTH * HEIGHT * channels);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      for (let c = 0; c < channels; c++) data[(y * WIDTH + x) * channels + c] = Math.max(0, Math.min(255, Math.round(value(x, y, c))));
    }
  }
  return { data, width: WIDTH, height: HEIGHT, channels };
}

// A fixed pseudo-random grain in -12..12, the same for every call.
function grain(x: number, y: number): number {
  return ((((x * 7919 + y * 104729) ^ (x * y * 31)) >>> 0) % 25) - 12;
}

describe("smoothShare", () => {
  it("counts a shaded graphic (gradients, flat fills, a few hard edges) as almost all smooth", () => {
    const graphic = image(3, (x, y, c) => (x > 200 && y > 80 ? 0 : 40 + (x * (c + 1)) / 3 + y / 4));
    expect(smoothShare(graphic)).toBeGreaterThan(0.9);
  });

  it("counts a grainy photo as mostly not smooth", () => {
    const photo: RawPixels = { data: photoPixels(WIDTH, HEIGHT, 3), width: WIDTH, height: HEIGHT, channels: 3 };
    expect(smoothShare(photo)).toBeLessThan(0.3);
  });

  it("reads gray by its one channel", () => {
    expect(smoothShare(image(1, (x) => x / 2))).toBeGreaterThan(0.95);
    expect(smoothShare(image(1, (x, y) => 128 + grain(x, y)))).toBeLessThan(0.3);
  });

  it("reads CMYK by all its ink, the black plate included", () => {
    const smoothInk = image(4, (x, y, c) => (c === 3 ? y / 2 : x / 3));
    const grainyBlack = image(4, (x, y, c) => (c === 3 ? 128 + grain(x, y) : x / 3));
    expect(smoothShare(smoothInk)).toBeGreaterThan(0.95);
    expect(smoothShare(grainyBlack)).toBeLessThan(0.3);
  });

  it("calls an image too small to have inner pixels smooth", () => {
    expect(smoothShare({ data: new Uint8Array([0, 255, 0, 255]), width: 2, height: 2, channels: 1 })).toBe(1);
  });
});
