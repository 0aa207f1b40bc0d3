import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inspectSource } from "./decode-limits.ts";
import { unprofiledCmykJpeg } from "./test-support/cmyk-jpegs.ts";
import { runSteps } from "./image-step.ts";
import { meanColour, photoLikePixels } from "./test-support/synthetic-images.ts";
import { toSrgb } from "./to-srgb.ts";

const width = 96;
const height = 64;
const original = () => sharp(photoLikePixels(width, height, 7), { raw: { width, height, channels: 3 } });
const saturated = () => sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 230, g: 40, b: 30 } } });

/** Runs the step the way the pipeline does and returns the pixels with no profile attached. */
async function throughStep(input: Buffer) {
  const source = await inspectSource(input);
  const { image } = await runSteps(input, source, [toSrgb]);
  const output = await image.png().toBuffer();
  const metadata = await sharp(output).metadata();
  return { output, metadata, mean: await meanColour(output) };
}

function expectClose(actual: number[], expected: number[], tolerance: number) {
  actual.forEach((value, i) => expect(Math.abs(value - (expected[i] ?? 0))).toBeLessThan(tolerance));
}

describe("toSrgb", () => {
  it("converts a CMYK JPEG without a profile to sRGB of the same colour", async () => {
    const cmyk = Buffer.from(await unprofiledCmykJpeg(photoLikePixels(width, height, 7), width, height, "cmyk"));
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const { metadata, mean } = await throughStep(cmyk);
    expect(metadata.space).toBe("srgb");
    expect(metadata.hasProfile).toBe(false);
    expectClose(mean, await meanColour(await original().png().toBuffer()), 12);
  });

  it("converts a CMYK JPEG with an embedded profile", async () => {
    const cmyk = await original().withIccProfile("cmyk").jpeg({ quality: 95 }).toBuffer();
    const tagged = await sharp(cmyk).metadata();
    expect([tagged.space, tagged.hasProfile]).toEqual(["cmyk", true]);
    const { metadata, mean } = await throughStep(cmyk);
    expect(metadata.space).toBe("srgb");
    // The profile's gamut is smaller than sRGB, so saturated colours move a little.
    expectClose(mean, await meanColour(await original().png().toBuffer()), 20);
  });

  it("converts wide-gamut (Display P3) pixels so that dropping the profile does not shift colour", async () => {
    const p3 = await saturated().withIccProfile("p3").png().toBuffer();
    const rawP3 = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    // The stored P3 numbers are far from the sRGB ones: without conversion the red would be dull.
    expect(Math.abs((rawP3[0] ?? 0) - 230) + Math.abs((rawP3[1] ?? 0) - 40)).toBeGreaterThan(15);
    const { metadata, mean } = await throughStep(p3);
    expect(metadata.hasProfile).toBe(false);
    expectClose(mean, [230, 40, 30], 4);
  });

  it("turns 16-bit input into 8-bit sRGB with the same colour", async () => {
    const deepPixels = new Uint16Array(32 * 32 * 3).map((_, i) => [230, 40, 30][i % 3]! * 257);
    const deep = await sharp(deepPixels, { raw: { width: 32, height: 32, channels: 3 } }).toColourspace("rgb16").png().toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe("ushort");
    const { metadata, mean } = await throughStep(deep);
    expect(metadata.depth).toBe("uchar");
    expectClose(mean, [230, 40, 30], 1);
  });

  it("keeps opaque greyscale as one channel", async () => {
    const grey = await original().toColourspace("b-w").png().toBuffer();
    const { metadata } = await throughStep(grey);
    expect(metadata.channels).toBe(1);
  });

  it("keeps the alpha channel of greyscale with alpha", async () => {
    const data = Buffer.alloc(16 * 16 * 2).map((_, i) => (i % 2 === 0 ? 90 : i % 64));
    const greyAlpha = await sharp(data, { raw: { width: 16, height: 16, channels: 2 } }).toColourspace("b-w").png().toBuffer();
    expect((await sharp(greyAlpha).metadata()).channels).toBe(2);
    const { output, metadata } = await throughStep(greyAlpha);
    expect(metadata.hasAlpha).toBe(true);
    const pixels = await sharp(output).raw().toBuffer();
    expect([...pixels.subarray(0, 8)]).toEqual([90, 90, 90, 1, 90, 90, 90, 3]);
  });
});
