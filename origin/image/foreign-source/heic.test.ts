import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { heifIccProfile } from "./heif-colour-profile.ts";
import { nativeHeicToPng } from "./heic-native.ts";
import { wasmHeicToPng } from "./heic-wasm.ts";

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, "../../../test/fixtures/foreign-images", name)));
const QUADRANTS = { topLeft: [220, 30, 30], topRight: [30, 200, 40], bottomLeft: [30, 40, 220], bottomRight: [250, 250, 250] };

/** The pixel as sRGB through its embedded profile, or its stored samples with `ignoreIcc`. */
async function pixelAt(png: Uint8Array, x: number, y: number, ignoreIcc = false) {
  const { data, info } = await sharp(png, { ignoreIcc }).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

// Both decoders meet the same contract: the native one (Debian's libheif tool, which .ci/run and
// the origin's image install) and the WebAssembly one the origin keeps without it.
describe.each([
  ["native libheif", async (bytes: Uint8Array, maxPixels: number) => (await nativeHeicToPng(bytes, maxPixels)).png],
  ["libheif in WebAssembly", wasmHeicToPng],
])("HEIC through %s", (_name, heicToPng) => {
  it("decodes a lossless HEIC to exactly its source pixels, each quadrant in its place", async () => {
    const png = await heicToPng(fixture("quadrants-lossless.heic"), 100_000_000);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(["png", 64, 48, false]);
    // Lossless in YCbCr 4:4:4: the colour conversion's rounding moves a channel by one at most.
    for (const [[x, y], expected] of [[[8, 8], QUADRANTS.topLeft], [[56, 8], QUADRANTS.topRight], [[8, 40], QUADRANTS.bottomLeft], [[56, 40], QUADRANTS.bottomRight]] as const) {
      const actual = await pixelAt(png, x, y);
      expect(actual.map((value, i) => Math.abs(value - expected[i]!)).every((difference) => difference <= 1), `${actual.join(",")} at ${x},${y}`).toBe(true);
    }
  });

  it("keeps a phone's Display P3 profile, so its colours convert to the sRGB the phone showed", async () => {
    const source = fixture("quadrants-p3.heic");
    const profile = heifIccProfile(source);
    expect(profile?.byteLength).toBeGreaterThan(100);
    const png = await heicToPng(source, 100_000_000);
    const meta = await sharp(png).metadata();
    expect(meta.icc && Buffer.from(meta.icc).equals(Buffer.from(profile!))).toBe(true);
    // The file stores sRGB (220,30,30) as P3 samples: read through the profile it is that red
    // again (within the lossy encode); read as if it were sRGB, it is a duller one.
    const shown = await pixelAt(png, 8, 8);
    expect(shown.map((value, i) => Math.abs(value - QUADRANTS.topLeft[i]!)).every((difference) => difference <= 6), shown.join(",")).toBe(true);
    const [storedRed] = await pixelAt(png, 8, 8, true);
    expect(storedRed).toBeLessThan(212);
  });

  it("refuses an image larger than the pixel limit from its header", async () => {
    await expect(heicToPng(fixture("quadrants-lossless.heic"), 64 * 48 - 1)).rejects.toMatchObject({ slug: "image_too_large", status: 413 });
  });

  it("refuses a truncated or damaged file with a 422", async () => {
    const whole = fixture("quadrants-p3.heic");
    await expect(heicToPng(whole.subarray(0, Math.floor(whole.byteLength / 2)), 100_000_000)).rejects.toMatchObject({ slug: "image_unreadable", status: 422 });
    await expect(heicToPng(new TextEncoder().encode("not a heic at all, just text"), 100_000_000)).rejects.toMatchObject({ slug: "image_unreadable" });
  });
});

describe("heifIccProfile", () => {
  it("finds no profile in an untagged file and survives garbage", () => {
    expect(heifIccProfile(fixture("quadrants-lossless.heic"))).toBeNull();
    expect(heifIccProfile(new Uint8Array([0, 0, 0, 200, 0x6d, 0x65, 0x74, 0x61]))).toBeNull();
  });
});
