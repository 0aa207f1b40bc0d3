import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { transformImage } from "./transform-image.ts";
import { luminanceStats, transformedRgb } from "./test-support/colour-pixels.ts";

describe("br_: brightness", () => {
  it("raises the mean luminance above 0 and lowers it below, to white and black at the ends", async () => {
    const photo = await generatedFile("photo.png");
    const plain = luminanceStats(await transformedRgb(photo, {}));
    const brighter = luminanceStats(await transformedRgb(photo, { brightness: 30 }));
    const darker = luminanceStats(await transformedRgb(photo, { brightness: -30 }));
    expect(brighter.mean).toBeGreaterThan(plain.mean + 20);
    expect(darker.mean).toBeLessThan(plain.mean - 20);
    expect(new Set(await transformedRgb(photo, { brightness: 100 }))).toEqual(new Set([255]));
    expect(new Set(await transformedRgb(photo, { brightness: -100 }))).toEqual(new Set([0]));
  });

  it("leaves alpha as it is", async () => {
    const half = await sharp({ create: { width: 4, height: 4, channels: 4, background: { r: 100, g: 100, b: 100, alpha: 0.5 } } }).png().toBuffer();
    const out = await transformImage(half, originTransformSchema.parse({ quality: 76, output: "png", brightness: 20 }));
    expect([...(await sharp(out.bytes).raw().toBuffer()).subarray(0, 4)]).toEqual([151, 151, 151, 128]);
  });
});
