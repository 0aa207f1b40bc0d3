import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { flattenForFormat } from "./flatten.ts";

// Left half fully transparent, right half half-transparent red.
function halfTransparent() {
  const data = Buffer.alloc(20 * 10 * 4);
  for (let p = 0; p < 200; p++) if (p % 20 >= 10) data.set([255, 0, 0, 128], p * 4);
  return sharp(data, { raw: { width: 20, height: 10, channels: 4 } }).png().toBuffer();
}

async function pixels(image: Sharp) {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { channels: info.channels, at: (x: number) => [...data.subarray(x * info.channels, (x + 1) * info.channels)] };
}

describe("flattenForFormat", () => {
  it("composites transparency onto white for JPEG by default", async () => {
    const { channels, at } = await pixels(flattenForFormat(sharp(await halfTransparent()), "transparent", "jpeg", null));
    expect(channels).toBe(3);
    expect(at(2)).toEqual([255, 255, 255]);
    const [r, g, b] = at(15);
    expect(r).toBe(255);
    expect(Math.abs((g ?? 0) - 128)).toBeLessThanOrEqual(2);
    expect(Math.abs((b ?? 0) - 128)).toBeLessThanOrEqual(2);
  });

  it("uses the requested background", async () => {
    const { at } = await pixels(flattenForFormat(sharp(await halfTransparent()), "transparent", "jpeg", "#000000"));
    expect(at(2)).toEqual([0, 0, 0]);
    expect(Math.abs((at(15)[0] ?? 0) - 128)).toBeLessThanOrEqual(2);
  });

  it.each(["png", "webp", "avif"] as const)("keeps alpha for %s", async (format) => {
    const { channels, at } = await pixels(flattenForFormat(sharp(await halfTransparent()), "transparent", format, null));
    expect(channels).toBe(4);
    expect(at(2)[3]).toBe(0);
  });

  it("drops an alpha channel that is fully opaque", async () => {
    const opaque = await sharp({ create: { width: 4, height: 4, channels: 4, background: { r: 9, g: 8, b: 7, alpha: 1 } } })
      .png()
      .toBuffer();
    const { channels, at } = await pixels(flattenForFormat(sharp(opaque), "opaque", "png", null));
    expect(channels).toBe(3);
    expect(at(0)).toEqual([9, 8, 7]);
  });
});
