import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { IMAGE_INPUT_LIMITS, decodeFailure, inspectSource, openSource } from "./decode-limits.ts";
import { photoLikePixels, pngHeaderBomb } from "./test-support/synthetic-images.ts";

const solid = (channels: 3 | 4 = 3) =>
  sharp({ create: { width: 40, height: 30, channels, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } });

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

describe("inspectSource", () => {
  it.each([
    ["jpeg", () => solid().jpeg().toBuffer()],
    ["png", () => solid(4).png().toBuffer()],
    ["webp", () => solid().webp().toBuffer()],
    ["gif", () => solid().gif().toBuffer()],
    ["tiff", () => solid().tiff().toBuffer()],
    ["avif", () => generatedFile("portrait.avif")],
  ] as const)("recognises %s from its bytes", async (format, make) => {
    const source = await inspectSource(new Uint8Array(await make()));
    expect(source.format).toBe(format);
    expect(source.width).toBeGreaterThan(0);
    expect(source.pages).toBe(1);
  });

  it("reports alpha, greyscale and the EXIF orientation", async () => {
    const alpha = await inspectSource(await solid(4).png().toBuffer());
    expect(alpha).toMatchObject({ has_alpha: true, is_greyscale: false, orientation: null, width: 40, height: 30 });
    const grey = await inspectSource(await solid().toColourspace("b-w").png().toBuffer());
    expect(grey.is_greyscale).toBe(true);
    const rotated = await inspectSource(await generatedFile("landscape-6.jpg"));
    expect(rotated.orientation).toBe(6);
  });

  it.each(["gif", "tiff"] as const)("counts the frames of a multi-frame %s", async (format) => {
    const frame = (colour: string) => sharp({ create: { width: 20, height: 30, channels: 3, background: colour } }).png().toBuffer();
    const joined = sharp([await frame("red"), await frame("blue")], { join: { animated: true } });
    const bytes = await (format === "gif" ? joined.gif() : joined.tiff()).toBuffer();
    expect(await inspectSource(bytes)).toMatchObject({ format, pages: 2, width: 20, height: 30 });
  });

  it.each([
    ["an empty body", new Uint8Array()],
    ["text", new TextEncoder().encode("this is not an image, it is plain text")],
    ["SVG", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')],
    ["PDF", new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF")],
  ])("refuses %s with 415", async (_, bytes) => {
    const problem = await problemOf(inspectSource(bytes));
    expect(problem.slug).toBe("unsupported_media_type");
    expect(problem.status).toBe(415);
  });

  it("refuses a decompression bomb from its header, before decoding", async () => {
    const problem = await problemOf(inspectSource(pngHeaderBomb(100_000, 100_000)));
    expect(problem.slug).toBe("image_too_large");
    expect(problem.status).toBe(413);
    expect(problem.extensions.limit_pixels).toBe(IMAGE_INPUT_LIMITS.max_input_pixels);
  });

  it("accepts a header just under the pixel limit and refuses one just over", async () => {
    await expect(inspectSource(pngHeaderBomb(10_000, 10_000))).resolves.toMatchObject({ width: 10_000 });
    const problem = await problemOf(inspectSource(pngHeaderBomb(10_000, 10_001)));
    expect(problem.slug).toBe("image_too_large");
  });

  it("refuses more bytes than the byte limit without parsing them", async () => {
    const problem = await problemOf(inspectSource(new Uint8Array(IMAGE_INPUT_LIMITS.max_input_bytes + 1)));
    expect(problem.slug).toBe("image_too_large");
    expect(problem.extensions.limit_bytes).toBe(IMAGE_INPUT_LIMITS.max_input_bytes);
  });
});

describe("openSource and decodeFailure", () => {
  it("decodes a complete image", async () => {
    const { info } = await openSource(await solid().jpeg().toBuffer()).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([40, 30]);
  });

  it("stops on a truncated JPEG and maps it to 422 image_unreadable", async () => {
    const noisy = await sharp(photoLikePixels(200, 200), { raw: { width: 200, height: 200, channels: 3 } }).jpeg().toBuffer();
    const truncated = noisy.subarray(0, Math.floor(noisy.length / 2));
    await expect(inspectSource(truncated)).resolves.toMatchObject({ format: "jpeg" });
    const error = await openSource(truncated).raw().toBuffer().then(() => null, (e: unknown) => e);
    expect(error).not.toBeNull();
    const problem = decodeFailure(error);
    expect(problem.slug).toBe("image_unreadable");
    expect(problem.status).toBe(422);
  });

  it("enforces the pixel limit in the decoder too", async () => {
    const error = await openSource(pngHeaderBomb(20_000, 20_000)).raw().toBuffer().then(() => null, (e: unknown) => e);
    expect(decodeFailure(error).slug).toBe("image_too_large");
  });
});
