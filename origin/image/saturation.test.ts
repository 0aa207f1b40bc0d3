import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { transformedRgb } from "./test-support/colour-pixels.ts";

/** The mean over pixels of the largest difference between two of a pixel's channels. */
function meanChroma(rgb: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < rgb.length; i += 3) sum += Math.max(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!) - Math.min(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
  return sum / (rgb.length / 3);
}

describe("sat_: saturation", () => {
  it("gives grey pixels (R = G = B) at -100", async () => {
    const grey = await transformedRgb(await generatedFile("photo.png"), { saturation: -100 });
    for (let i = 0; i < grey.length; i += 3) {
      if (grey[i] !== grey[i + 1] || grey[i] !== grey[i + 2]) throw new Error(`pixel ${i / 3} is ${grey.subarray(i, i + 3).join(",")}`);
    }
  });

  it("moves colours away from grey above 0 and towards it below", async () => {
    const photo = await generatedFile("photo.png");
    const plain = meanChroma(await transformedRgb(photo, {}));
    expect(plain).toBeGreaterThan(10);
    expect(meanChroma(await transformedRgb(photo, { saturation: 50 }))).toBeGreaterThan(plain * 1.2);
    expect(meanChroma(await transformedRgb(photo, { saturation: -50 }))).toBeLessThan(plain * 0.6);
  });
});
