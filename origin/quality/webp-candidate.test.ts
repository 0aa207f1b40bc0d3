import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import type { RawImage } from "./raw-image.ts";
import { joinTiles, mosaicTiles } from "./sample-mosaic.ts";
import { decodeWebpCandidate } from "./webp-candidate.ts";

async function webpOf(image: RawImage, quality: number): Promise<Uint8Array> {
  const { width, height, channels } = image;
  return new Uint8Array(await sharp(image.data, { raw: { width, height, channels } }).webp({ quality }).toBuffer());
}

/** How the search decoded a probe before: sharp, to the reference's channels. */
async function sharpPixels(bytes: Uint8Array, channels: 3 | 4): Promise<RawImage> {
  const srgb = sharp(bytes).toColourspace("srgb");
  const { data, info } = await (channels === 4 ? srgb.ensureAlpha() : srgb.removeAlpha()).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels };
}

const opaque: RawImage = { data: new Uint8Array(photoLikePixels(345, 417, 4)), width: 345, height: 417, channels: 3 };
// The same picture with a soft transparent band across it.
const translucent: RawImage = { ...opaque, channels: 4, data: new Uint8Array(345 * 417 * 4) };
for (let pixel = 0; pixel < 345 * 417; pixel++) {
  translucent.data.set(opaque.data.subarray(pixel * 3, pixel * 3 + 3), pixel * 4);
  translucent.data[pixel * 4 + 3] = Math.min(255, Math.abs((pixel % 345) - 170) * 3);
}

describe("decodeWebpCandidate", () => {
  it("decodes a whole WebP to exactly sharp's pixels, opaque or not, at low and high quality", async () => {
    for (const image of [opaque, translucent]) {
      for (const quality of [30, 76, 95]) {
        const bytes = await webpOf(image, quality);
        const decoded = await decodeWebpCandidate({ webp: [bytes], tile: null, width: image.width, height: image.height, channels: image.channels });
        const expected = await sharpPixels(bytes, image.channels);
        expect(decoded.channels).toBe(image.channels);
        expect(Buffer.compare(decoded.data, expected.data)).toBe(0);
      }
    }
  });

  it("decodes a mosaic's tiles and lays them back in order, as sharp's pixels", async () => {
    const mosaic: RawImage = { data: new Uint8Array(photoLikePixels(384, 256, 9)), width: 384, height: 256, channels: 3 };
    const pieces = await Promise.all(mosaicTiles(mosaic, 128).map((tile) => webpOf(tile, 60)));
    expect(pieces).toHaveLength(6);
    const decoded = await decodeWebpCandidate({ webp: pieces, tile: 128, width: 384, height: 256, channels: 3 });
    const expected = joinTiles(await Promise.all(pieces.map((piece) => sharpPixels(piece, 3))), mosaic, 128);
    expect(Buffer.compare(decoded.data, expected.data)).toBe(0);
  });

  it("refuses a candidate whose files are not the shape it names", async () => {
    const bytes = await webpOf(opaque, 76);
    await expect(decodeWebpCandidate({ webp: [bytes], tile: null, width: 344, height: 417, channels: 3 })).rejects.toThrow(/decoded to 345x417, not 344x417/);
    await expect(decodeWebpCandidate({ webp: [bytes, bytes], tile: null, width: 345, height: 417, channels: 3 })).rejects.toThrow(/one file, not 2/);
    await expect(decodeWebpCandidate({ webp: [bytes], tile: 128, width: 256, height: 128, channels: 3 })).rejects.toThrow(/not 1 tiles/);
    await expect(decodeWebpCandidate({ webp: [new Uint8Array([1, 2, 3])], tile: null, width: 345, height: 417, channels: 3 })).rejects.toThrow();
  });
});
