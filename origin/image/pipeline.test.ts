import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { imageOptionsSchema, type ImageOptionsInput } from "../../contracts/image-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { inspectSource } from "./decode-limits.ts";
import { openPixels, renderPixels } from "./pipeline.ts";
import { photoLikePixels, pixelDistance } from "./test-support/synthetic-images.ts";

async function render(input: Uint8Array, options: ImageOptionsInput) {
  return renderPixels(input, await inspectSource(input), imageOptionsSchema.parse(options), false);
}

describe("renderPixels", () => {
  it("orients before resizing, so the box applies to the upright picture", async () => {
    const input = await generatedFile("landscape-6.jpg");
    const pixels = await render(input, { width: 300 });
    expect([pixels.width, pixels.height, pixels.channels]).toEqual([300, 200, 3]);
    expect(pixels.orientation_applied).toBe(6);
    expect(pixels.data.byteLength).toBe(300 * 200 * 3);
  });

  it("keeps alpha from the source and from transparent padding", async () => {
    const opaque = await sharp(photoLikePixels(80, 40), { raw: { width: 80, height: 40, channels: 3 } }).png().toBuffer();
    const padded = await render(opaque, { width: 60, height: 60, fit: "contain" });
    expect([padded.width, padded.height, padded.channels, padded.has_alpha]).toEqual([60, 60, 4, true]);
    const plain = await render(opaque, {});
    expect([plain.channels, plain.has_alpha]).toEqual([3, false]);
  });

  it("turns a decode failure into a ProblemError", async () => {
    const jpeg = await sharp(photoLikePixels(200, 200), { raw: { width: 200, height: 200, channels: 3 } }).jpeg().toBuffer();
    const error = await render(jpeg.subarray(0, jpeg.length >> 1), {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).slug).toBe("image_unreadable");
  });
});

describe("openPixels", () => {
  it("reopens the rendered pixels unchanged", async () => {
    const source = await sharp(photoLikePixels(64, 48), { raw: { width: 64, height: 48, channels: 3 } }).png().toBuffer();
    const pixels = await render(source, {});
    const reopened = await openPixels(pixels).png().toBuffer();
    expect(await pixelDistance(reopened, source)).toBe(0);
  });
});
