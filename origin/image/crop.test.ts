import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { transformImage } from "./transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", ...options }));

const rgb = async (image: Sharp) => {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
};

function meanDifference(a: { data: Uint8Array }, b: { data: Uint8Array }): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

describe("crop_: a rectangle of the upright source, before the turn and the resize", () => {
  const rect = { x: 100, y: 50, width: 300, height: 200 };
  const region = { left: 100, top: 50, width: 300, height: 200 };

  it("is exactly that rectangle of the source's pixels", async () => {
    const photo = await generatedFile("photo.png");
    const out = await run(photo, { crop: rect });
    expect([out.width, out.height]).toEqual([300, 200]);
    expect(await rgb(sharp(out.bytes))).toEqual(await rgb(sharp(photo).extract(region)));
  });

  it("is cut before the turn and the mirror, and the resize works on what is left", async () => {
    const photo = await generatedFile("photo.png");
    const turned = await run(photo, { crop: rect, rotate: 90, flip: "h" });
    expect(await rgb(sharp(turned.bytes))).toEqual(await rgb(sharp(await sharp(photo).extract(region).rotate(90).png().toBuffer()).flop()));
    const sized = await run(photo, { crop: rect, rotate: 90, width: 100 });
    expect([sized.width, sized.height]).toEqual([100, 150]);
  });

  it("counts in the pixels of the picture as it is shown, after the EXIF orientation", async () => {
    // landscape-6 is stored on its side; upright it is landscape-1's picture.
    const upright = await run(await generatedFile("landscape-1.jpg"), { crop: rect });
    const onItsSide = await run(await generatedFile("landscape-6.jpg"), { crop: rect });
    expect([onItsSide.width, onItsSide.height]).toEqual([300, 200]);
    const elsewhere = await run(await generatedFile("landscape-1.jpg"), { crop: { ...rect, x: 600, y: 400 } });
    const a = await rgb(sharp(upright.bytes));
    expect(meanDifference(await rgb(sharp(onItsSide.bytes)), a)).toBeLessThan(meanDifference(await rgb(sharp(elsewhere.bytes)), a) / 4);
  });

  it("cuts every frame of an animation alike", async () => {
    const out = await run(await generatedFile("animated.gif"), { crop: { x: 2, y: 3, width: 20, height: 10 }, output: "source" });
    const meta = await sharp(out.bytes, { animated: true }).metadata();
    expect([meta.format, meta.width, meta.pageHeight]).toEqual(["webp", 20, 10]);
    expect(meta.pages).toBeGreaterThan(1);
  });

  it("refuses a rectangle reaching past the image as crop_out_of_bounds, pointing at the token", async () => {
    const photo = await generatedFile("photo.png");
    const { width, height } = await sharp(photo).metadata();
    const error = await run(photo, { crop: { x: width - 10, y: 0, width: 11, height: 10 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect([problem.slug, problem.status]).toEqual(["crop_out_of_bounds", 422]);
    expect(problem.errors?.[0]?.pointer).toBe(`/transform/crop_${width - 10}x0x11x10`);
    expect(problem.extensions).toEqual({ image_width: width, image_height: height });
    await expect(run(photo, { crop: { x: 0, y: height, width: 1, height: 1 } })).rejects.toMatchObject({ slug: "crop_out_of_bounds" });
  });
});
