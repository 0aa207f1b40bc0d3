// An unprofiled CMYK JPEG must come out the way browsers show it (the naive conversion, whatever
// the APP14 marker says), through each step list; a profiled one through its profile. The
// reference is the RGB picture the file was made from: the naive ink rule and the browsers'
// conversion are inverses, so a browser shows that picture, up to JPEG loss (the e2e test
// checks Chromium itself). Before this rule, libvips' press profile gave these files SSIM 0.93.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { ssim, type LumaImage } from "../pdf/ssim.ts";
import { browserCmykToRgbInPlace } from "./browser-cmyk.ts";
import { deriveMezzanine } from "./derive-mezzanine.ts";
import { processImage } from "./process-image.ts";
import { colourBands, unprofiledCmykJpeg, type Adobe } from "./test-support/cmyk-jpegs.ts";
import { transformImage } from "./transform-image.ts";

const width = 320;
const height = 200;
const picture = colourBands(width, height);

function luma(rgb: Uint8Array, w: number, h: number): LumaImage {
  const data = new Float64Array(w * h);
  for (let p = 0; p < data.length; p++) data[p] = 0.299 * (rgb[p * 3] ?? 0) + 0.587 * (rgb[p * 3 + 1] ?? 0) + 0.114 * (rgb[p * 3 + 2] ?? 0);
  return { data, width: w, height: h };
}

const mean = (image: LumaImage) => Array.from(image.data).reduce((sum, v) => sum + v, 0) / image.data.length;

async function decodedLuma(bytes: Uint8Array): Promise<LumaImage> {
  const { data, info } = await sharp(bytes).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return luma(data, info.width, info.height);
}

const pipelines = {
  optimize: async (input: Uint8Array) => (await processImage(input, imageOptionsSchema.parse({ format: "png" }))).bytes,
  transform: async (input: Uint8Array) => (await transformImage(input, originTransformSchema.parse({ quality: 80, output: "png" }))).bytes,
  mezzanine: async (input: Uint8Array) => (await deriveMezzanine(input)).bytes,
};

describe.each(["cmyk", "ycck", "no-marker"] satisfies Adobe[])("an unprofiled CMYK JPEG, APP14 %s", (adobe) => {
  it.each(Object.entries(pipelines))("comes out of %s as browsers show it", async (_name, run) => {
    const cmyk = await unprofiledCmykJpeg(picture, width, height, adobe);
    expect(await sharp(cmyk).metadata()).toMatchObject({ space: "cmyk", hasProfile: false });
    const reference = luma(picture, width, height);
    const output = await decodedLuma(await run(cmyk));
    expect(Math.abs(mean(output) - mean(reference))).toBeLessThan(1);
    expect(ssim(output, reference)).toBeGreaterThan(0.99);
  });
});

describe("browserCmykToRgbInPlace", () => {
  it("gives the numbers Chromium 156 drew for one CMYK pixel", () => {
    // Ink 200, 100, 30, 60 (stored inverted: 55, 155, 225, 195); Chromium's canvas read 42, 118, 172.
    expect([...browserCmykToRgbInPlace(new Uint8Array([200, 100, 30, 60, 0, 0, 0, 0, 255, 255, 255, 255]))]).toEqual([42, 118, 172, 255, 255, 255, 0, 0, 0]);
  });
});

describe("a CMYK JPEG with an embedded profile", () => {
  it("is converted through its profile, not the browsers' naive rule", async () => {
    const rgb = sharp(picture, { raw: { width, height, channels: 3 } });
    const profiled = await rgb.withIccProfile("cmyk").jpeg({ quality: 95 }).toBuffer();
    expect(await sharp(profiled).metadata()).toMatchObject({ space: "cmyk", hasProfile: true });
    const throughProfile = await decodedLuma(await sharp(profiled).toColourspace("srgb").png().toBuffer());
    for (const run of Object.values(pipelines)) {
      const output = await decodedLuma(await run(profiled));
      expect(ssim(output, throughProfile)).toBeGreaterThan(0.99);
      expect(Math.abs(mean(output) - mean(throughProfile))).toBeLessThan(1);
    }
  });
});
