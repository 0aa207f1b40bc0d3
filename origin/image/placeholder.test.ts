import sharp from "sharp";
import { decode as blurhashDecode } from "blurhash";
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from "thumbhash";
import { describe, expect, it } from "vitest";
import { imagePlaceholderSchema, LQIP_MAX_SIDE } from "../../contracts/origin/image-placeholder.ts";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { computePlaceholder } from "./placeholder.ts";
import { processImage } from "./process-image.ts";
import { transformImage } from "./transform-image.ts";
import { meanColour, photoLikePixels } from "./test-support/synthetic-images.ts";
import { FRAME_COLOURS } from "../../test/fixtures/animated-fixture.ts";
import { animatedImage } from "../../test/fixtures/animated-images.ts";

const STORED = { width: 480, height: 320 };

/** A photo stored landscape with EXIF orientation 6: upright it is portrait. */
async function rotatedPhoto(): Promise<Uint8Array> {
  const raw = photoLikePixels(STORED.width, STORED.height, 7);
  return new Uint8Array(await sharp(raw, { raw: { ...STORED, channels: 3 } }).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer());
}

function meanOfRgba(rgba: ArrayLike<number>): number[] {
  const sums = [0, 0, 0];
  for (let i = 0; i < rgba.length; i += 4) for (let c = 0; c < 3; c++) sums[c]! += rgba[i + c]!;
  return sums.map((sum) => sum / (rgba.length / 4));
}

function expectClose(actual: number[], expected: number[], tolerance: number) {
  actual.forEach((value, i) => expect(Math.abs(value - expected[i]!)).toBeLessThan(tolerance));
}

describe("computePlaceholder", () => {
  it("gives hashes that decode back to the source's mean colour, at the upright size", async () => {
    const photo = await rotatedPhoto();
    const placeholder = imagePlaceholderSchema.parse(await computePlaceholder(photo));
    const sourceMean = await meanColour(photo);

    expect([placeholder.width, placeholder.height]).toEqual([STORED.height, STORED.width]);

    const thumb = thumbHashToRGBA(Buffer.from(placeholder.thumbhash, "base64"));
    expectClose(meanOfRgba(thumb.rgba), sourceMean, 8);
    expect(thumb.h).toBeGreaterThan(thumb.w);
    expect(thumbHashToApproximateAspectRatio(Buffer.from(placeholder.thumbhash, "base64"))).toBeCloseTo(STORED.height / STORED.width, 1);

    expectClose(meanOfRgba(blurhashDecode(placeholder.blurhash, 32, 48)), sourceMean, 8);
  });

  it("makes an LQIP that is a small WebP of the upright aspect ratio, close to the source's colours", async () => {
    const photo = await rotatedPhoto();
    const { lqip, width, height } = await computePlaceholder(photo);
    const bytes = Buffer.from(lqip.slice("data:image/webp;base64,".length), "base64");
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe("webp");
    expect(bytes.byteLength).toBeLessThan(300);
    expect(Math.max(meta.width, meta.height)).toBe(LQIP_MAX_SIDE);
    expect(meta.width / meta.height).toBeCloseTo(width / height, 1);
    expectClose(await meanColour(bytes), await meanColour(photo), 10);
  });

  it("names the colour that covers most of the image and keeps transparency in the thumbhash", async () => {
    const size = { width: 200, height: 100 };
    const rgba = Buffer.alloc(size.width * size.height * 4);
    for (let i = 0; i < rgba.length; i += 4) {
      const x = (i / 4) % size.width;
      // Left 80% opaque red, right 20% fully transparent.
      if (x < 160) rgba.set([220, 30, 30, 255], i);
    }
    const png = new Uint8Array(await sharp(rgba, { raw: { ...size, channels: 4 } }).png().toBuffer());
    const placeholder = await computePlaceholder(png);
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(placeholder.dominant_color.slice(at, at + 2), 16));
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(70);
    expect(b).toBeLessThan(70);
    const thumb = thumbHashToRGBA(Buffer.from(placeholder.thumbhash, "base64"));
    const rightEdgeAlpha = thumb.rgba[(Math.floor(thumb.h / 2) * thumb.w + thumb.w - 1) * 4 + 3]!;
    expect(rightEdgeAlpha).toBeLessThan(128);
    const lqipMeta = await sharp(Buffer.from(placeholder.lqip.split(",")[1]!, "base64")).metadata();
    expect(lqipMeta.hasAlpha).toBe(true);
  });

  it("refuses a truncated image with a 4xx problem", async () => {
    const photo = await rotatedPhoto();
    const error = await computePlaceholder(photo.subarray(0, 1500)).then(
      () => null,
      (e: { status: number }) => e,
    );
    expect(error?.status).toBeGreaterThanOrEqual(400);
    expect(error?.status).toBeLessThan(500);
  });
});

describe("the ph_lqip transform", () => {
  it("serves the LQIP of the shaped image as WebP, whatever output was negotiated", async () => {
    const photo = await rotatedPhoto();
    const out = await transformImage(photo, originTransformSchema.parse({ width: 300, height: 300, fit: "cover", quality: 76, output: "jpeg", placeholder: "lqip" }));
    const meta = await sharp(out.bytes).metadata();
    expect([out.format, meta.format]).toEqual(["webp", "webp"]);
    expect([out.width, out.height, meta.width, meta.height]).toEqual([LQIP_MAX_SIDE, LQIP_MAX_SIDE, LQIP_MAX_SIDE, LQIP_MAX_SIDE]);
    expect(out.bytes.byteLength).toBeLessThan(300);
    // Without a box it is the same preview GET /v1/files/{id}/placeholder gives.
    const uncropped = await transformImage(photo, originTransformSchema.parse({ quality: 76, output: "source", placeholder: "lqip" }));
    const reference = Buffer.from((await computePlaceholder(photo)).lqip.split(",")[1]!, "base64");
    const [ours, theirs] = [await sharp(uncropped.bytes).metadata(), await sharp(reference).metadata()];
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    expectClose(await meanColour(uncropped.bytes), await meanColour(reference), 3);
  });

  it("is one still preview of the first frame for an animated source", async () => {
    const gif = await animatedImage("gif", { width: 40, height: 30, delay: [100, 100, 100] });
    const out = await transformImage(gif, originTransformSchema.parse({ quality: 76, output: "source", placeholder: "lqip" }));
    const meta = await sharp(out.bytes).metadata();
    expect([out.format, meta.pages ?? 1, meta.width, meta.height]).toEqual(["webp", 1, LQIP_MAX_SIDE, 12]);
    expectClose(await meanColour(out.bytes), [...FRAME_COLOURS[0]], 12);
  });
});

describe("placeholder: true on optimize", () => {
  it("adds the output's placeholder, at the output's size, and nothing without it", async () => {
    const photo = await rotatedPhoto();
    const options = imageOptionsSchema.parse({ width: 150, format: "webp" });
    const plain = await processImage(photo, options);
    expect(plain.placeholder).toBeNull();
    const withPlaceholder = await processImage(photo, { ...options, placeholder: true });
    const placeholder = imagePlaceholderSchema.parse(withPlaceholder.placeholder);
    expect([placeholder.width, placeholder.height]).toEqual([withPlaceholder.width, withPlaceholder.height]);
    expect([withPlaceholder.width, withPlaceholder.height]).toEqual([150, 225]);
    expectClose(meanOfRgba(thumbHashToRGBA(Buffer.from(placeholder.thumbhash, "base64")).rgba), await meanColour(withPlaceholder.bytes), 8);
  });

  it("previews the first frame of an animated output", async () => {
    const gif = await animatedImage("gif", { width: 40, height: 30, delay: [100, 100, 100] });
    const out = await processImage(gif, imageOptionsSchema.parse({ format: "webp", placeholder: true }));
    expect(out.stats.frames).toBe(3);
    expect(out.placeholder).toMatchObject({ width: 40, height: 30 });
    expectClose(meanOfRgba(blurhashDecode(out.placeholder!.blurhash, 8, 6)), [...FRAME_COLOURS[0]], 12);
  });
});
