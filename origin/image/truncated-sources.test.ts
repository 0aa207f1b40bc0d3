// Truncation is refused in every format the origin reads, frames and pages included: libvips
// reads a cut GIF's whole frames and keeps them, and libpng does not miss a lost IEND, so a
// truncated source could otherwise be processed and charged as if it were the whole image.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { animatedImage } from "../../test/fixtures/animated-images.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { decodeFailure, inspectSource, openSource } from "./decode-limits.ts";
import { processImage } from "./process-image.ts";
import { transformImage } from "./transform-image.ts";
import { photoLikePixels } from "./test-support/synthetic-images.ts";

const WIDTH = 64;
const HEIGHT = 48;

function noisy(frames: number) {
  return sharp(photoLikePixels(WIDTH, HEIGHT * frames), { raw: { width: WIDTH, height: HEIGHT * frames, channels: 3, pageHeight: HEIGHT } });
}

const TEN_FRAMES = Array.from({ length: 10 }, () => 100);

const sources: Record<string, () => Promise<Uint8Array>> = {
  jpeg: async () => noisy(1).jpeg().toBuffer(),
  "progressive jpeg": async () => noisy(1).jpeg({ progressive: true }).toBuffer(),
  png: async () => noisy(1).png().toBuffer(),
  webp: async () => noisy(1).webp().toBuffer(),
  "lossless webp": async () => noisy(1).webp({ lossless: true }).toBuffer(),
  "animated webp": async () => noisy(10).webp({ delay: TEN_FRAMES }).toBuffer(),
  gif: async () => noisy(1).gif().toBuffer(),
  "animated gif": async () => noisy(10).gif({ delay: TEN_FRAMES }).toBuffer(),
  tiff: async () => noisy(1).tiff().toBuffer(),
  "deflate tiff": async () => noisy(1).tiff({ compression: "deflate" }).toBuffer(),
  "multi-page tiff": async () => noisy(10).tiff().toBuffer(),
  avif: async () => generatedFile("portrait.avif"),
};

/** What every image path does first: the header read, then the decode of what it will use. */
async function readWhole(bytes: Uint8Array): Promise<unknown> {
  try {
    const source = await inspectSource(bytes);
    return await openSource(bytes, source.animation !== null).raw().toBuffer();
  } catch (error) {
    return decodeFailure(error);
  }
}

describe("a truncated source is refused with 422 image_unreadable", () => {
  it.each(Object.keys(sources))("%s: whole it decodes; cut anywhere it is refused", async (name) => {
    const bytes = new Uint8Array(await sources[name]!());
    expect(await readWhole(bytes)).toBeInstanceOf(Buffer);
    for (const kept of [0.3, 0.5, 0.9, 0.98]) {
      const cut = bytes.subarray(0, Math.floor(bytes.length * kept));
      const outcome = await readWhole(cut);
      expect(outcome, `${name} cut to ${cut.length} of ${bytes.length} bytes`).toBeInstanceOf(ProblemError);
      expect((outcome as ProblemError).slug).toBe("image_unreadable");
      expect((outcome as ProblemError).status).toBe(422);
    }
  });

  it.each(["png", "gif", "animated gif"])("%s missing only its last byte is refused", async (name) => {
    const bytes = new Uint8Array(await sources[name]!());
    const outcome = await readWhole(bytes.subarray(0, bytes.length - 1));
    expect(outcome).toBeInstanceOf(ProblemError);
    expect((outcome as ProblemError).slug).toBe("image_unreadable");
  });

  it("trailing bytes after a complete image are not truncation", async () => {
    for (const name of ["png", "gif", "animated gif"]) {
      const bytes = new Uint8Array(await sources[name]!());
      const padded = new Uint8Array([...bytes, 0, 0, 0, 0]);
      expect(await readWhole(padded), name).toBeInstanceOf(Buffer);
    }
  });

  // The case probing found: the first 706 of 1,413 bytes of a 10-frame GIF gave 5 frames and a charge.
  it("a 10-frame GIF cut in half is refused by optimize and transform, not answered with the frames before the cut", async () => {
    const gif = await animatedImage("gif", { width: 24, height: 16, delay: TEN_FRAMES });
    const half = gif.subarray(0, Math.floor(gif.length / 2));
    for (const run of [
      () => processImage(half, imageOptionsSchema.parse({})),
      () => processImage(half, imageOptionsSchema.parse({ animated: false })),
      () => transformImage(half, originTransformSchema.parse({ quality: 76, output: "source" })),
    ]) {
      const error = await run().then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).slug).toBe("image_unreadable");
    }
  });
});
