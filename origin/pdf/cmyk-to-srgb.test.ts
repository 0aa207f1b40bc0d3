import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cmykTiff } from "./cmyk-tiff.ts";
import { cmykToSrgb } from "./cmyk-to-srgb.ts";
import { photoPixels } from "./test-support/generate-pdf.ts";

async function throughSharp(data: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(cmykTiff({ data, width, height, channels: 4 })).toColourspace("srgb").raw().toBuffer());
}

describe("cmykToSrgb", () => {
  it.each([
    ["a photo", photoPixels(240, 160, 4)],
    ["scattered ink values", new Uint8Array(240 * 160 * 4).map((_, index) => ((index * 2654435761) >>> 13) & 255)],
  ])("gives %s the colours of sharp's CMYK-to-sRGB conversion to within two levels", async (_, cmyk) => {
    const expected = await throughSharp(cmyk, 240, 160);
    const converted = await cmykToSrgb(cmyk, 240, 160);
    expect([converted.width, converted.height, converted.channels]).toEqual([240, 160, 3]);
    let sum = 0;
    let worst = 0;
    for (let i = 0; i < expected.length; i++) {
      const difference = Math.abs((converted.data[i] ?? 0) - (expected[i] ?? 0));
      sum += difference;
      worst = Math.max(worst, difference);
    }
    expect(worst).toBeLessThanOrEqual(2);
    expect(sum / expected.length).toBeLessThan(0.5);
  });
});
