import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { workMegapixels } from "./work-pixels.ts";

const jpeg = async (width: number, height: number, orientation?: number) =>
  new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: "#808080" } })
      .withMetadata(orientation === undefined ? {} : { orientation })
      .jpeg()
      .toBuffer(),
  );

describe("workMegapixels", () => {
  it("counts the source's pixels when no box is asked, and the box's share of them when one is", async () => {
    const wallpaper = await jpeg(3840, 2400);
    expect(await workMegapixels(wallpaper, {})).toBeCloseTo(9.216, 6);
    expect(await workMegapixels(wallpaper, { width: 1920 })).toBeCloseTo(9.216 / 4, 6);
    // Never more than the source: a box larger than it is not an enlargement of the work.
    expect(await workMegapixels(wallpaper, { width: 7680 })).toBeCloseTo(9.216, 6);
  });

  it("fits the box to the upright image, and with both sides counts the larger scale", async () => {
    // Stored 400x300, shown 300x400 (EXIF orientation 6).
    const rotated = await jpeg(400, 300, 6);
    expect(await workMegapixels(rotated, { width: 150 })).toBeCloseTo(0.03, 6);
    expect(await workMegapixels(rotated, { width: 150, height: 100 })).toBeCloseTo(0.03, 6);
  });

  it("counts nothing for bytes whose header sharp cannot read", async () => {
    expect(await workMegapixels(new TextEncoder().encode("not an image"), { width: 100 })).toBe(0);
  });
});
