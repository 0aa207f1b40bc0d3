import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { focalRegion } from "./focal-crop.ts";
import { transformImage } from "./transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", fit: "cover", ...options }));

const rgb = async (image: Sharp) => {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
};

/** 400x100 black with a white 40x40 square whose centre is at (340, 30): a face off to the right. */
async function markedPicture(): Promise<Uint8Array> {
  const square = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#ffffff" } }).png().toBuffer();
  return sharp({ create: { width: 400, height: 100, channels: 3, background: "#000000" } })
    .composite([{ input: square, left: 320, top: 10 }])
    .png()
    .toBuffer();
}

const brightest = async (bytes: Uint8Array) => (await sharp(bytes).stats()).channels[0]!.max;

describe("g_<x>x<y>: a cover crop centred on a focal point", () => {
  it("centres the crop on the point, pushed back inside the picture near an edge", () => {
    expect(focalRegion({ width: 1204, height: 800 }, { width: 100, height: 100 }, { x: 0.6, y: 0.5 })).toEqual({ left: 322, top: 0, width: 800, height: 800 });
    expect(focalRegion({ width: 1204, height: 800 }, { width: 100, height: 100 }, { x: 0.05, y: 0.5 })).toEqual({ left: 0, top: 0, width: 800, height: 800 });
    expect(focalRegion({ width: 1204, height: 800 }, { width: 100, height: 100 }, { x: 1, y: 0 })).toEqual({ left: 404, top: 0, width: 800, height: 800 });
    expect(focalRegion({ width: 400, height: 100 }, { width: 300, height: 30 }, { x: 0.5, y: 0.9 })).toEqual({ left: 0, top: 60, width: 400, height: 40 });
  });

  it("keeps the chosen region that the centre crop loses", async () => {
    const picture = await markedPicture();
    const atFace = await run(picture, { width: 50, height: 50, focus: { x: 0.85, y: 0.3 } });
    const centred = await run(picture, { width: 50, height: 50 });
    expect([atFace.width, atFace.height]).toEqual([50, 50]);
    expect(await brightest(atFace.bytes)).toBe(255);
    expect(await brightest(centred.bytes)).toBe(0);
  });

  it("is exactly the region cut and scaled to the box", async () => {
    const photo = await generatedFile("photo.png");
    const out = await run(photo, { width: 100, height: 100, focus: { x: 0.6, y: 0.5 } });
    const expected = sharp(photo).extract({ left: 322, top: 0, width: 800, height: 800 }).resize({ width: 100, height: 100, fit: "fill" });
    expect(await rgb(sharp(out.bytes))).toEqual(await rgb(expected));
  });

  it("reads the point on the picture as turned and mirrored", async () => {
    const picture = await markedPicture();
    // Mirrored left-right, the square is at the left: a point at x 0.15 finds it there.
    const mirrored = await run(picture, { width: 50, height: 50, flip: "h", focus: { x: 0.15, y: 0.3 } });
    expect(await brightest(mirrored.bytes)).toBe(255);
    const missed = await run(picture, { width: 50, height: 50, flip: "h", focus: { x: 0.85, y: 0.3 } });
    expect(await brightest(missed.bytes)).toBe(0);
    // Turned a quarter clockwise, the picture is 100x400 and the square near its bottom left... at (70, 340).
    const turned = await run(picture, { width: 50, height: 50, rotate: 90, focus: { x: 0.7, y: 0.85 } });
    expect([turned.width, turned.height]).toEqual([50, 50]);
    expect(await brightest(turned.bytes)).toBe(255);
  });
});
