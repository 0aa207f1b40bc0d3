import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { transformImage } from "./transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", width: 96, ...options }));

interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
}

async function pixels(bytes: Uint8Array): Promise<Pixels> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** The same image mirrored in memory, pixel by pixel, as the expected answer. */
function mirrored(image: Pixels, across: "h" | "v"): Pixels {
  const out = new Uint8Array(image.data.length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const from = across === "h" ? (y * image.width + (image.width - 1 - x)) * 3 : ((image.height - 1 - y) * image.width + x) * 3;
      out.set(image.data.subarray(from, from + 3), (y * image.width + x) * 3);
    }
  }
  return { ...image, data: out };
}

function meanDifference(a: Pixels, b: Pixels): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

describe("fl_: mirror after the rotation", () => {
  it("mirrors left-right, top-bottom and both, pixel for pixel", async () => {
    const photo = await generatedFile("photo.png");
    const plain = await pixels((await run(photo, {})).bytes);
    const h = await pixels((await run(photo, { flip: "h" })).bytes);
    const v = await pixels((await run(photo, { flip: "v" })).bytes);
    const hv = await pixels((await run(photo, { flip: "hv" })).bytes);
    expect(meanDifference(h, plain)).toBeGreaterThan(5);
    expect(h).toEqual(mirrored(plain, "h"));
    expect(v).toEqual(mirrored(plain, "v"));
    expect(hv).toEqual(mirrored(mirrored(plain, "h"), "v"));
  });

  it("mirrors the turned image, not the image before its quarter turn", async () => {
    const photo = await generatedFile("photo.png");
    const turned = await pixels((await run(photo, { rotate: 90 })).bytes);
    const turnedThenMirrored = await pixels((await run(photo, { rotate: 90, flip: "h" })).bytes);
    expect(turnedThenMirrored).toEqual(mirrored(turned, "h"));
  });

  it("mirrors the upright picture of a photo stored on its side (EXIF 6)", async () => {
    const upright = await pixels((await run(await generatedFile("landscape-1.jpg"), { flip: "h" })).bytes);
    const onItsSide = await pixels((await run(await generatedFile("landscape-6.jpg"), { flip: "h" })).bytes);
    const unmirrored = await pixels((await run(await generatedFile("landscape-6.jpg"), {})).bytes);
    expect(meanDifference(onItsSide, upright)).toBeLessThan(meanDifference(unmirrored, upright) / 4);
  });
});
