import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { transformedRgb } from "./test-support/colour-pixels.ts";
import { transformImage } from "./transform-image.ts";

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

  it("leaves an overlay's colours alone: the overlay is drawn after the colour steps", async () => {
    const base = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
    const mark = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer();
    const overlay = { file_id: "file_watermark1", bytes: mark.byteLength, gravity: "northwest" as const, opacity: 100 };
    const out = await transformImage(base, originTransformSchema.parse({ quality: 76, output: "png", saturation: -100, overlay }), mark);
    const { data, info } = await sharp(out.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
    const far = ((info.height - 1) * info.width + info.width - 1) * 3;
    const [r, g, b] = data.subarray(far, far + 3);
    expect([g, b]).toEqual([r, r]);
  });
});
