import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { EDGE_MAX_SOURCE_BYTES } from "../../contracts/limits/edge-budget.ts";
import { MEZZANINE_MAX_PIXELS } from "../../contracts/origin/image-mezzanine.ts";
import { deriveMezzanine } from "./derive-mezzanine.ts";
import { unprofiledCmykJpeg } from "./test-support/cmyk-jpegs.ts";
import { photoLikeJpeg, pixelDistance } from "./test-support/synthetic-images.ts";

describe("deriveMezzanine", () => {
  it("makes a large photo an upright, in-budget, high-quality JPEG of the same picture", async () => {
    const original = await generatedFile("portrait-6.jpg");
    const mezzanine = await deriveMezzanine(original);
    const meta = await sharp(mezzanine.bytes).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: mezzanine.width, height: mezzanine.height, space: "srgb" });
    expect(meta.orientation ?? 1).toBe(1);
    expect(mezzanine.width * mezzanine.height).toBeLessThanOrEqual(MEZZANINE_MAX_PIXELS);
    expect(mezzanine.width * mezzanine.height).toBeGreaterThan(MEZZANINE_MAX_PIXELS * 0.99);
    const stored = await sharp(original).metadata();
    // Orientation 6 swaps the axes; the shape is kept.
    expect(mezzanine.original).toEqual({ width: stored.height, height: stored.width, format: "jpeg", hasAlpha: false });
    expect(Math.abs(mezzanine.width / mezzanine.height - stored.height / stored.width)).toBeLessThan(0.01);
    const upright = await sharp(original).autoOrient().toBuffer();
    expect(await pixelDistance(mezzanine.bytes, upright)).toBeLessThan(3);
  });

  it("converts CMYK to sRGB so the colours survive", async () => {
    const rgb = await photoLikeJpeg(1200, 900);
    const cmyk = await unprofiledCmykJpeg(await sharp(rgb).raw().toBuffer(), 1200, 900, "cmyk");
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const mezzanine = await deriveMezzanine(cmyk);
    const meta = await sharp(mezzanine.bytes).metadata();
    expect(meta).toMatchObject({ format: "jpeg", space: "srgb", channels: 3 });
    expect(await pixelDistance(mezzanine.bytes, rgb)).toBeLessThan(8);
  });

  it("keeps alpha losslessly in PNG and leaves small sources at their size", async () => {
    const translucent = await generatedFile("rgba.png");
    const mezzanine = await deriveMezzanine(translucent);
    expect(mezzanine).toMatchObject({ format: "png", width: 32, height: 32, original: { width: 32, height: 32, format: "png", hasAlpha: true } });
    const [a, b] = await Promise.all([sharp(mezzanine.bytes).raw().toBuffer(), sharp(translucent).ensureAlpha().raw().toBuffer()]);
    expect(Buffer.compare(a, b)).toBe(0);
  });

  it("stays within the edge's byte budget even for incompressible pixels with alpha", async () => {
    const noise = Buffer.alloc(1300 * 1000 * 4);
    let state = 12345;
    for (let i = 0; i < noise.length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      noise[i] = state >>> 24;
    }
    const original = new Uint8Array(await sharp(noise, { raw: { width: 1300, height: 1000, channels: 4 } }).png().toBuffer());
    const mezzanine = await deriveMezzanine(original);
    expect(mezzanine.format).toBe("png");
    expect(mezzanine.width * mezzanine.height).toBeGreaterThan(MEZZANINE_MAX_PIXELS * 0.99);
    expect(mezzanine.bytes.byteLength).toBeGreaterThan(EDGE_MAX_SOURCE_BYTES * 0.9);
    expect(mezzanine.bytes.byteLength).toBeLessThanOrEqual(EDGE_MAX_SOURCE_BYTES);
  });

  it("reports a corrupt original as a problem", async () => {
    const truncated = (await generatedFile("landscape-1.jpg")).slice(0, 40_000);
    await expect(deriveMezzanine(truncated)).rejects.toMatchObject({ slug: "image_unreadable" });
  });
});
