import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { transformImage } from "./transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", ...options }));

/** 40x30 white, a light grey (#f0f0f0, 6% off white) frame 3 px wide inside it, and a red 10x6 block at (12, 9). */
async function framedBlock(): Promise<Uint8Array> {
  const grey = await sharp({ create: { width: 34, height: 24, channels: 3, background: "#f0f0f0" } }).png().toBuffer();
  const inner = await sharp({ create: { width: 28, height: 18, channels: 3, background: "#ffffff" } }).png().toBuffer();
  const red = await sharp({ create: { width: 10, height: 6, channels: 3, background: "#ff0000" } }).png().toBuffer();
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "#ffffff" } })
    .composite([
      { input: grey, left: 3, top: 3 },
      { input: inner, left: 6, top: 6 },
      { input: red, left: 12, top: 9 },
    ])
    .png()
    .toBuffer();
}

const topLeft = async (bytes: Uint8Array) => [...(await sharp(bytes).removeAlpha().raw().toBuffer()).subarray(0, 3)];

describe("trim_: a border of the top-left pixel's colour, within the tolerance", () => {
  it("removes the border, and at a higher tolerance the near-white frame too", async () => {
    const picture = await framedBlock();
    const tight = await run(picture, { trim: 2 });
    expect([tight.width, tight.height]).toEqual([34, 24]);
    const loose = await run(picture, { trim: 10 });
    expect([loose.width, loose.height]).toEqual([10, 6]);
    expect(await topLeft(loose.bytes)).toEqual([255, 0, 0]);
  });

  it("trims after the crop and before the turn and the resize", async () => {
    const picture = await framedBlock();
    // The crop leaves the block inside white (no grey frame): trimmed, only the block is left.
    const cropped = await run(picture, { crop: { x: 8, y: 6, width: 20, height: 15 }, trim: 10 });
    expect([cropped.width, cropped.height]).toEqual([10, 6]);
    const turned = await run(picture, { trim: 10, rotate: 90, width: 3 });
    expect([turned.width, turned.height]).toEqual([3, 5]);
  });

  it("leaves a picture of one colour, and every frame of an animation, one size", async () => {
    const flat = await sharp({ create: { width: 20, height: 10, channels: 3, background: "#123456" } }).png().toBuffer();
    const out = await run(flat, { trim: 0 });
    expect([out.width, out.height]).toEqual([20, 10]);
    const animated = await run(await generatedFile("animated.gif"), { trim: 5, output: "source" });
    const meta = await sharp(animated.bytes, { animated: true }).metadata();
    expect(meta.pages).toBeGreaterThan(1);
    expect(meta.height).toBe(meta.pageHeight! * meta.pages!);
  });
});
