// Optimize, transform and mezzanine are step lists over the same steps: a source the three
// read differently before (greyscale, EXIF-rotated) must come out of each the same way.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { deriveMezzanine } from "./derive-mezzanine.ts";
import { processImage } from "./process-image.ts";
import { photoLikePixels, pixelDistance } from "./test-support/synthetic-images.ts";
import { transformImage } from "./transform-image.ts";

const width = 240;
const height = 160;
const photo = () => sharp(photoLikePixels(width, height, 3), { raw: { width, height, channels: 3 } });

const pipelines = {
  optimize: async (input: Uint8Array) => (await processImage(input, imageOptionsSchema.parse({ format: "jpeg" }))).bytes,
  transform: async (input: Uint8Array) => (await transformImage(input, originTransformSchema.parse({ quality: 80, output: "jpeg" }))).bytes,
  mezzanine: async (input: Uint8Array) => (await deriveMezzanine(input)).bytes,
};

describe.each(Object.entries(pipelines))("the %s step list", (_name, run) => {
  it("keeps an opaque greyscale source one channel of the same picture", async () => {
    const grey = await photo().toColourspace("b-w").jpeg({ quality: 95 }).toBuffer();
    const output = await run(grey);
    const metadata = await sharp(output).metadata();
    expect([metadata.channels, metadata.space]).toEqual([1, "b-w"]);
    expect(await pixelDistance(output, grey)).toBeLessThan(3);
  });

  it("stands an EXIF-rotated photo upright with its axes swapped", async () => {
    const upright = await photo().png().toBuffer();
    // Stored turned a quarter anticlockwise, tagged 6 ("rotate 90° clockwise to view").
    const stored = await sharp(upright).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(stored).metadata()).width).toBe(height);
    const output = await run(stored);
    const metadata = await sharp(output).metadata();
    expect([metadata.width, metadata.height, metadata.orientation ?? 1]).toEqual([width, height, 1]);
    expect(await pixelDistance(output, upright)).toBeLessThan(6);
  });
});
