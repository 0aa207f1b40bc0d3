import { describe, expect, it } from "vitest";
import { generatedBytes } from "../test-support/generated-file.ts";
import { encodePixels } from "./codecs.ts";
import { readImageHeader } from "./image-header.ts";

describe("readImageHeader", () => {
  it("reads JPEG size and EXIF orientation", async () => {
    expect(readImageHeader(await generatedBytes("landscape-1.jpg"))).toEqual({ format: "jpeg", width: 1800, height: 1200, hasAlpha: false, orientation: null, cmyk: false, animated: false });
    expect(readImageHeader(await generatedBytes("landscape-0.jpg"))?.orientation).toBeNull();
    for (const n of [2, 6, 8]) {
      expect(readImageHeader(await generatedBytes(`portrait-${n}.jpg`))?.orientation).toBe(n);
    }
  });

  it("tells a four-component (CMYK) JPEG from a three-component one", async () => {
    const rgb = await generatedBytes("landscape-1.jpg");
    let sof = 2;
    while (rgb[sof + 1] !== 0xc0 && rgb[sof + 1] !== 0xc2) sof += 2 + ((rgb[sof + 2]! << 8) | rgb[sof + 3]!);
    expect(rgb[sof + 9]).toBe(3);
    const cmyk = rgb.slice();
    cmyk[sof + 9] = 4;
    expect(readImageHeader(cmyk)).toMatchObject({ format: "jpeg", width: 1800, cmyk: true });
  });

  it("reads PNG size and alpha, tRNS included", async () => {
    expect(readImageHeader(await generatedBytes("photo.png"))).toMatchObject({ format: "png", width: 1204, height: 800, hasAlpha: false });
    expect(readImageHeader(await generatedBytes("rgba.png"))).toMatchObject({ width: 32, height: 32, hasAlpha: true });
    expect(readImageHeader(await generatedBytes("palette-transparent.png"))?.hasAlpha).toBe(true);
    expect(readImageHeader(await generatedBytes("rgb.png"))?.hasAlpha).toBe(false);
  });

  it("reads lossy and lossless WebP", async () => {
    const opaque = { data: new Uint8ClampedArray(37 * 21 * 4).fill(255), width: 37, height: 21 };
    expect(readImageHeader(await encodePixels("webp", opaque, 70))).toMatchObject({ format: "webp", width: 37, height: 21, hasAlpha: false });
    const translucent = { ...opaque, data: new Uint8ClampedArray(37 * 21 * 4).fill(100) };
    expect(readImageHeader(await encodePixels("webp", translucent, 70))).toMatchObject({ format: "webp", width: 37, height: 21, hasAlpha: true });
  });

  it("flags an animated WebP from its VP8X animation bit, and an animated GIF is left to the origin", async () => {
    expect(readImageHeader(await generatedBytes("animated.webp"))).toMatchObject({ format: "webp", width: 64, height: 48, animated: true });
    expect(readImageHeader(await generatedBytes("animated.gif"))).toBeNull();
  });

  it("gives up on what it cannot read", async () => {
    expect(readImageHeader(await generatedBytes("portrait.avif"))).toBeNull();
    expect(readImageHeader(new Uint8Array([0xff, 0xd8, 0xff]))).toBeNull();
    // A truncated JPEG would decode as grey at the edge: the origin refuses it instead.
    expect(readImageHeader((await generatedBytes("landscape-1.jpg")).slice(0, 50_000))).toBeNull();
    expect(readImageHeader(new Uint8Array(0))).toBeNull();
  });

  it("gives up on a PNG or WebP that ends before its structure does, so the origin refuses it", async () => {
    const png = await generatedBytes("rgba.png");
    expect(readImageHeader(png)).not.toBeNull();
    expect(readImageHeader(png.slice(0, Math.floor(png.length / 2)))).toBeNull();
    // Only the IEND chunk's CRC is lost: the pixels are whole, the file is not.
    expect(readImageHeader(png.slice(0, png.length - 1))).toBeNull();
    expect(readImageHeader(new Uint8Array([...png, 0, 0]))).not.toBeNull();
    const opaque = { data: new Uint8ClampedArray(37 * 21 * 4).fill(255), width: 37, height: 21 };
    const webp = await encodePixels("webp", opaque, 70);
    expect(readImageHeader(webp.slice(0, webp.length - 2))).toBeNull();
    // Reading only the start of a large file cannot see its end: the origin then gets the file.
    expect(readImageHeader(png.slice(0, png.length - 1), "start")).not.toBeNull();
  });
});
