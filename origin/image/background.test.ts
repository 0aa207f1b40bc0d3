import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { transformImage } from "./transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 90, output: "png", ...options }));

const pixelAt = async (bytes: Uint8Array, x: number, y: number) => {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
};

const near = (actual: number[], expected: number[]) => actual.forEach((value, i) => expect(Math.abs(value - expected[i]!), `channel ${i} of ${actual.join(",")}`).toBeLessThanOrEqual(3));

/** 20x10 opaque blue, and a 20x20 red square whose left half is transparent. */
const wide = () => sharp({ create: { width: 20, height: 10, channels: 3, background: "#0000ff" } }).png().toBuffer();
function halfTransparent(): Promise<Buffer> {
  const data = Buffer.alloc(20 * 20 * 4);
  for (let i = 0; i < 20 * 20; i++) data.set([255, 0, 0, i % 20 < 10 ? 0 : 255], i * 4);
  return sharp(data, { raw: { width: 20, height: 20, channels: 4 } }).png().toBuffer();
}

describe("bg_: contain's padding and a JPEG's flattened transparency", () => {
  it("pads fit_contain with the colour, opaque, in a format that keeps alpha and in a JPEG", async () => {
    const png = await run(await wide(), { width: 20, height: 20, fit: "contain", background: "ff8800" });
    expect([png.width, png.height]).toEqual([20, 20]);
    expect(await pixelAt(png.bytes, 10, 1)).toEqual([255, 136, 0, 255]);
    expect(await pixelAt(png.bytes, 10, 10)).toEqual([0, 0, 255, 255]);
    const jpeg = await run(await wide(), { width: 20, height: 20, fit: "contain", background: "ff8800", output: "jpeg" });
    near(await pixelAt(jpeg.bytes, 10, 1), [255, 136, 0, 255]);
  });

  it("pads transparent in PNG and white in JPEG without it", async () => {
    const png = await run(await wide(), { width: 20, height: 20, fit: "contain" });
    expect((await pixelAt(png.bytes, 10, 1))[3]).toBe(0);
    const jpeg = await run(await wide(), { width: 20, height: 20, fit: "contain", output: "jpeg" });
    near(await pixelAt(jpeg.bytes, 10, 1), [255, 255, 255, 255]);
  });

  it("flattens transparency onto the colour in a JPEG, and leaves it transparent in a PNG", async () => {
    const source = await halfTransparent();
    const jpeg = await run(source, { output: "jpeg", background: "00ff00" });
    near(await pixelAt(jpeg.bytes, 3, 10), [0, 255, 0, 255]);
    near(await pixelAt(jpeg.bytes, 16, 10), [255, 0, 0, 255]);
    const white = await run(source, { output: "jpeg" });
    near(await pixelAt(white.bytes, 3, 10), [255, 255, 255, 255]);
    const png = await run(source, { output: "png", background: "00ff00" });
    expect((await pixelAt(png.bytes, 3, 10))[3]).toBe(0);
  });

  it("keeps its colour under the colour adjustments, which come before the padding", async () => {
    const out = await run(await wide(), { width: 20, height: 20, fit: "contain", background: "808080", brightness: 50, contrast: 40, saturation: -100, gamma: 2 });
    expect(await pixelAt(out.bytes, 10, 1)).toEqual([128, 128, 128, 255]);
  });
});
