import { describe, expect, it } from "vitest";
import { corpusBytes } from "../test-support/corpus.ts";
import { encodePixels } from "./codecs.ts";
import { readImageHeader } from "./image-header.ts";

describe("readImageHeader", () => {
  it("reads JPEG size and EXIF orientation", async () => {
    expect(readImageHeader(await corpusBytes("img/exif-orientation/Landscape_1.jpg"))).toEqual({ format: "jpeg", width: 1800, height: 1200, hasAlpha: false, orientation: null });
    expect(readImageHeader(await corpusBytes("img/exif-orientation/Landscape_0.jpg"))?.orientation).toBeNull();
    for (const n of [2, 6, 8]) {
      expect(readImageHeader(await corpusBytes(`img/exif-orientation/Portrait_${n}.jpg`))?.orientation).toBe(n);
    }
  });

  it("reads PNG size and alpha, tRNS included", async () => {
    expect(readImageHeader(await corpusBytes("img/avif/fox.png"))).toMatchObject({ format: "png", width: 1204, height: 800, hasAlpha: false });
    expect(readImageHeader(await corpusBytes("img/pngsuite/basn6a08.png"))).toMatchObject({ width: 32, height: 32, hasAlpha: true });
    expect(readImageHeader(await corpusBytes("img/pngsuite/tbbn3p08.png"))?.hasAlpha).toBe(true);
    expect(readImageHeader(await corpusBytes("img/pngsuite/basn2c08.png"))?.hasAlpha).toBe(false);
  });

  it("reads lossy and lossless WebP", async () => {
    const opaque = { data: new Uint8ClampedArray(37 * 21 * 4).fill(255), width: 37, height: 21 };
    expect(readImageHeader(await encodePixels("webp", opaque, 70))).toMatchObject({ format: "webp", width: 37, height: 21, hasAlpha: false });
    const translucent = { ...opaque, data: new Uint8ClampedArray(37 * 21 * 4).fill(100) };
    expect(readImageHeader(await encodePixels("webp", translucent, 70))).toMatchObject({ format: "webp", width: 37, height: 21, hasAlpha: true });
  });

  it("gives up on what it cannot read", async () => {
    expect(readImageHeader(await corpusBytes("img/avif/kimono.avif"))).toBeNull();
    expect(readImageHeader(new Uint8Array([0xff, 0xd8, 0xff]))).toBeNull();
    // A truncated JPEG would decode as grey at the edge: the origin refuses it instead.
    expect(readImageHeader((await corpusBytes("img/exif-orientation/Landscape_1.jpg")).slice(0, 50_000))).toBeNull();
    expect(readImageHeader(new Uint8Array(0))).toBeNull();
  });
});
