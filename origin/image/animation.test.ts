import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema, type ImageOptionsInput } from "../../contracts/image-options.ts";
import { ANIMATION_LIMITS } from "../../contracts/limits/animation.ts";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { inspectSource } from "./decode-limits.ts";
import { processImage } from "./process-image.ts";
import { transformImage } from "./transform-image.ts";
import { FRAME_COLOURS } from "../../test/fixtures/animated-fixture.ts";
import { animatedImage, animatedWebpHeaderOnly } from "../../test/fixtures/animated-images.ts";
import { meanColour } from "./test-support/synthetic-images.ts";

const optimize = (input: Uint8Array, options: ImageOptionsInput = {}) => processImage(input, imageOptionsSchema.parse(options));

const transform = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "source", ...options }));

const DELAY = [80, 120, 200, 40];

async function readBack(bytes: Uint8Array) {
  const metadata = await sharp(bytes, { animated: true }).metadata();
  return { format: metadata.format, width: metadata.width, frameHeight: metadata.pageHeight ?? metadata.height, pages: metadata.pages ?? 1, delay: metadata.delay, loop: metadata.loop };
}

async function frameColour(bytes: Uint8Array, page: number): Promise<number[]> {
  const png = await sharp(bytes, { page, pages: 1 }).png().toBuffer();
  return meanColour(png);
}

function expectNear(actual: number[], expected: readonly number[]) {
  expected.forEach((v, i) => expect(Math.abs(actual[i]! - v)).toBeLessThan(12));
}

describe("optimize keeps an animation", () => {
  it.each(["gif", "webp"] as const)("an animated %s becomes animated WebP, resized per frame, with its frames and timing", async (format) => {
    const input = await animatedImage(format, { width: 60, height: 40, delay: DELAY, loop: 3 });
    const result = await optimize(input, { width: 30 });
    expect(result.format).toBe("webp");
    expect([result.width, result.height]).toEqual([30, 20]);
    expect(await readBack(result.bytes)).toEqual({ format: "webp", width: 30, frameHeight: 20, pages: 4, delay: DELAY, loop: 3 });
    for (let page = 0; page < 4; page++) expectNear(await frameColour(result.bytes, page), FRAME_COLOURS[page]!);
    expect(result.stats).toMatchObject({ frames: 4, duration_ms: 440, first_frame_only: false, original_width: 60, original_height: 40 });
  });

  it("auto tries only formats that hold the animation", async () => {
    const input = await animatedImage("gif", { width: 48, height: 32, delay: DELAY });
    const result = await optimize(input, { format: "auto", width: 24 });
    expect(result.stats.candidates?.map((c) => c.format)).toEqual(["webp"]);
    expect((await readBack(result.bytes)).pages).toBe(4);
  });

  it("keeps the animation under max_bytes and with metadata kept", async () => {
    const input = await animatedImage("webp", { width: 64, height: 48, delay: DELAY });
    const fitted = await optimize(input, { format: "webp", max_bytes: 100_000 });
    expect((await readBack(fitted.bytes)).delay).toEqual(DELAY);
    const kept = await optimize(input, { strip_metadata: false, width: 32 });
    expect(await readBack(kept.bytes)).toMatchObject({ width: 32, frameHeight: 24, pages: 4, delay: DELAY });
  });

  it("animated: false takes the first frame and says so", async () => {
    const input = await animatedImage("gif", { width: 40, height: 30, delay: DELAY });
    const result = await optimize(input, { animated: false });
    expect(result.format).toBe("png");
    expect([result.width, result.height]).toEqual([40, 30]);
    expect((await readBack(result.bytes)).pages).toBe(1);
    expectNear(await meanColour(result.bytes), FRAME_COLOURS[0]);
    expect(result.stats).toMatchObject({ frames: 1, duration_ms: null, first_frame_only: true });
  });

  it("a still format named explicitly takes the first frame (AVIF included: libvips writes no AVIF sequence)", async () => {
    const input = await animatedImage("webp", { width: 40, height: 30, delay: DELAY });
    for (const format of ["avif", "jpeg"] as const) {
      const result = await optimize(input, { format });
      expect([result.format, result.height, result.stats.frames, result.stats.first_frame_only]).toEqual([format, 30, 1, true]);
    }
  });

  it("a still image reports one frame and no duration", async () => {
    const still = await sharp({ create: { width: 20, height: 10, channels: 3, background: "#123456" } }).png().toBuffer();
    expect((await optimize(still)).stats).toMatchObject({ frames: 1, duration_ms: null, first_frame_only: false });
  });
});

describe("a transform keeps an animation", () => {
  it.each(["gif", "webp"] as const)("an animated %s becomes animated WebP with its frames and timing, cropped per frame", async (format) => {
    const input = await animatedImage(format, { width: 60, height: 40, delay: DELAY, loop: 0 });
    const out = await transform(input, { width: 20, height: 20, fit: "cover", gravity: "auto" });
    expect([out.format, out.width, out.height]).toEqual(["webp", 20, 20]);
    expect(await readBack(out.bytes)).toEqual({ format: "webp", width: 20, frameHeight: 20, pages: 4, delay: DELAY, loop: 0 });
    for (let page = 0; page < 4; page++) expectNear(await frameColour(out.bytes, page), FRAME_COLOURS[page]!);
  });

  it("f_auto keeps it whatever class Accept gave; a named still format or anim_false takes the first frame", async () => {
    const input = await animatedImage("gif", { width: 40, height: 30, delay: DELAY });
    for (const output of ["avif", "legacy"] as const) {
      const out = await transform(input, { output, format_auto: true });
      expect([out.format, (await readBack(out.bytes)).pages]).toEqual(["webp", 4]);
    }
    const named = await transform(input, { output: "avif" });
    expect([named.format, named.height, (await readBack(named.bytes)).pages]).toEqual(["avif", 30, 1]);
    const first = await transform(input, { animated: false });
    expect([first.format, (await readBack(first.bytes)).pages]).toEqual(["png", 1]);
    expectNear(await meanColour(first.bytes), FRAME_COLOURS[0]);
  });

  it("turns and blurs each frame on its own: frames keep their order and do not bleed into each other", async () => {
    const input = await animatedImage("webp", { width: 40, height: 30, delay: DELAY });
    const out = await transform(input, { rotate: 90, blur: 4, sharpen: 1, width: 15 });
    expect(await readBack(out.bytes)).toMatchObject({ width: 15, frameHeight: 20, pages: 4, delay: DELAY });
    for (let page = 0; page < 4; page++) {
      const { data } = await sharp(out.bytes, { page, pages: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // The last row of each frame: stacked-frame blur would mix in the next frame's colour here.
      const lastRow = Array.from(data.subarray((20 - 1) * 15 * 3, (20 - 1) * 15 * 3 + 3));
      expectNear(lastRow, FRAME_COLOURS[page]!);
    }
    const turned = await transform(input, { rotate: 90, animated: false });
    expect([turned.width, turned.height, (await readBack(turned.bytes)).pages]).toEqual([30, 40, 1]);
  });
});

describe("animation limits, from the header", () => {
  async function refusal(work: Promise<unknown>): Promise<ProblemError> {
    const error = await work.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    return error as ProblemError;
  }

  it("refuses more frames than the limit with a 413, before a frame is decoded", async () => {
    const input = animatedWebpHeaderOnly(4, 4, ANIMATION_LIMITS.max_frames + 1);
    const problem = await refusal(optimize(input));
    expect([problem.slug, problem.status]).toEqual(["image_too_large", 413]);
    expect(problem.message).toContain(`${ANIMATION_LIMITS.max_frames + 1} frames`);
    expect(problem.message).toMatch(/animated: false \(anim_false\), or a still output format/);
    expect(problem.extensions).toMatchObject({ limit_frames: ANIMATION_LIMITS.max_frames });
  });

  it("refuses more pixels across frames than the limit, though each frame is within the still-image limit", async () => {
    const input = animatedWebpHeaderOnly(8000, 8000, 2);
    const problem = await refusal(optimize(input));
    expect([problem.slug, problem.status]).toEqual(["image_too_large", 413]);
    expect(problem.extensions).toMatchObject({ limit_total_pixels: ANIMATION_LIMITS.max_total_pixels });
    await expect(transform(input, { width: 10 })).rejects.toMatchObject({ slug: "image_too_large" });
  });

  it("takes the first frame of an animation past the limits when the call asks for it, as the 413 advises", async () => {
    const frames = ANIMATION_LIMITS.max_frames + 1;
    const input = await animatedImage("gif", { width: 6, height: 4, delay: Array.from({ length: frames }, () => 40) });
    expect((await inspectSource(input)).animation?.frames).toBe(frames);
    await expect(optimize(input)).rejects.toMatchObject({ slug: "image_too_large" });

    const [stillOptimize, stillFormat, stillTransform] = [await optimize(input, { animated: false }), await optimize(input, { format: "png" }), await transform(input, { animated: false })];
    for (const result of [stillOptimize, stillFormat]) expect(result.stats).toMatchObject({ frames: 1, first_frame_only: true });
    for (const result of [stillOptimize, stillTransform]) {
      expect((await readBack(result.bytes)).pages).toBe(1);
      expectNear(await frameColour(result.bytes, 0), FRAME_COLOURS[0]);
    }
  });

  it("reads the timing of an animation within the limits", async () => {
    const source = await inspectSource(await animatedImage("gif", { width: 8, height: 8, delay: DELAY, loop: 2 }));
    expect(source.animation).toEqual({ frames: 4, delay: DELAY, loop: 2 });
  });
});
