import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageOptionsSchema, type ImageOptionsInput } from "../../contracts/image-options.ts";
import { autoCandidates, chooseSmallest, profileContent, requestedTarget } from "./choose-format.ts";
import type { EncodeTarget } from "./encode.ts";
import type { RenderedPixels } from "./pipeline.ts";
import { processImage } from "./process-image.ts";
import { photoLikePixels } from "./test-support/synthetic-images.ts";

const width = 200;
const height = 150;

function rendered(data: Buffer, channels: 1 | 2 | 3 | 4): RenderedPixels {
  return { data, width, height, channels, has_alpha: channels === 2 || channels === 4, orientation_applied: null, page_height: height, animation: null };
}

/** A flat graphic: solid blocks and antialiased-free stripes in a handful of colours. */
function flatGraphic(): Buffer {
  const data = Buffer.alloc(width * height * 3);
  const palette = [
    [255, 255, 255],
    [20, 40, 200],
    [230, 30, 30],
    [0, 0, 0],
  ];
  for (let p = 0; p < width * height; p++) {
    const x = p % width;
    const y = Math.floor(p / width);
    data.set(palette[(Math.floor(x / 25) + Math.floor(y / 30)) % palette.length]!, p * 3);
  }
  return data;
}

function withAlpha(rgb: Buffer, alphaAt: (p: number) => number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    data.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
    data[p * 4 + 3] = alphaAt(p);
  }
  return data;
}

describe("profileContent", () => {
  it("tells a photo from a flat graphic", () => {
    expect(profileContent(rendered(photoLikePixels(width, height), 3))).toEqual({ alpha: "none", is_graphic: false });
    expect(profileContent(rendered(flatGraphic(), 3))).toEqual({ alpha: "none", is_graphic: true });
  });

  it("tells real transparency from an opaque alpha channel", () => {
    const photo = photoLikePixels(width, height);
    expect(profileContent(rendered(withAlpha(photo, () => 255), 4)).alpha).toBe("opaque");
    expect(profileContent(rendered(withAlpha(photo, (p) => (p === 777 ? 254 : 255)), 4)).alpha).toBe("transparent");
  });
});

describe("autoCandidates", () => {
  it("offers lossless formats for graphics, no JPEG with transparency, all lossy formats for opaque photos", () => {
    const formats = (profile: Parameters<typeof autoCandidates>[0]) =>
      autoCandidates(profile, 70, false).map((t) => `${t.format}${t.lossless ? "-lossless" : `@${t.quality}`}`);
    expect(formats({ alpha: "none", is_graphic: true })).toEqual(["png-lossless", "webp-lossless"]);
    expect(formats({ alpha: "transparent", is_graphic: false })).toEqual(["webp@70", "avif@70"]);
    expect(formats({ alpha: "opaque", is_graphic: false })).toEqual(["jpeg@70", "webp@70", "avif@70"]);
  });
});

describe("chooseSmallest", () => {
  it("encodes every candidate, reports each size and keeps the smallest", async () => {
    const raw = photoLikePixels(width, height);
    const encodeCandidate = async (target: EncodeTarget) => ({
      target,
      chroma: null,
      bytes: new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(target.format, { quality: target.quality }).toBuffer()),
      score: null,
      encodes: 1,
    });
    const chosen = await chooseSmallest(autoCandidates({ alpha: "none", is_graphic: false }, 76, false), encodeCandidate);
    expect(chosen.candidates.map((c) => c.format)).toEqual(["jpeg", "webp", "avif"]);
    expect(chosen.candidates.map((c) => c.quality)).toEqual([76, 76, 76]);
    expect(chosen.encodes).toBe(3);
    const smallest = Math.min(...chosen.candidates.map((c) => c.output_bytes));
    expect(chosen.bytes.byteLength).toBe(smallest);
    expect(chosen.candidates.find((c) => c.output_bytes === smallest)?.format).toBe(chosen.target.format);
    expect((await sharp(chosen.bytes).metadata()).format).toBe(chosen.target.format === "avif" ? "heif" : chosen.target.format);
  });
});

describe("requestedTarget", () => {
  const photo = { alpha: "none", is_graphic: false } as const;
  const graphic = { alpha: "none", is_graphic: true } as const;
  const transparent = { alpha: "transparent", is_graphic: false } as const;

  it("keeps the source's family by default, lossy at the requested quality except PNG", () => {
    expect(requestedTarget("source", "jpeg", photo, 70, false)).toEqual({ format: "jpeg", lossless: false, quality: 70 });
    expect(requestedTarget("source", "png", photo, 70, false)).toEqual({ format: "png", lossless: true, quality: 70 });
    expect(requestedTarget("source", "webp", photo, 70, false)).toEqual({ format: "webp", lossless: false, quality: 70 });
    expect(requestedTarget("source", "webp", graphic, 70, false)).toEqual({ format: "webp", lossless: true, quality: 70 });
    expect(requestedTarget("source", "avif", transparent, 70, false)).toEqual({ format: "avif", lossless: false, quality: 70 });
  });

  it("sends GIF to lossless PNG and TIFF to JPEG when an opaque photo, PNG otherwise", () => {
    expect(requestedTarget("source", "gif", graphic, 76, false)).toMatchObject({ format: "png", lossless: true });
    expect(requestedTarget("source", "tiff", photo, 76, false)).toMatchObject({ format: "jpeg", lossless: false });
    expect(requestedTarget("source", "tiff", transparent, 76, false)).toMatchObject({ format: "png", lossless: true });
    expect(requestedTarget("source", "tiff", graphic, 76, false)).toMatchObject({ format: "png", lossless: true });
  });

  it("pins a named format whatever the source", () => {
    expect(requestedTarget("webp", "jpeg", graphic, 50, false)).toEqual({ format: "webp", lossless: false, quality: 50 });
    expect(requestedTarget("png", "jpeg", photo, 50, false)).toEqual({ format: "png", lossless: true, quality: 50 });
  });
});

describe("processImage without a format", () => {
  const size = { width: 160, height: 120 };
  const raw = (channels: 3 | 4) => {
    const rgb = photoLikePixels(size.width, size.height);
    if (channels === 3) return sharp(rgb, { raw: { ...size, channels: 3 } });
    const rgba = Buffer.alloc(size.width * size.height * 4);
    for (let p = 0; p < size.width * size.height; p++) {
      rgba.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
      rgba[p * 4 + 3] = p % size.width < 40 ? 0 : 255;
    }
    return sharp(rgba, { raw: { ...size, channels: 4 } });
  };
  const sources = {
    jpeg: async () => raw(3).jpeg({ quality: 92 }).toBuffer(),
    png: async () => raw(3).png().toBuffer(),
    webp: async () => raw(3).webp({ quality: 92 }).toBuffer(),
    avif: async () => raw(3).avif({ quality: 80, effort: 0 }).toBuffer(),
    gif: async () => raw(3).gif().toBuffer(),
    "opaque tiff": async () => raw(3).tiff({ compression: "lzw" }).toBuffer(),
    // sharp's default TIFF compression (JPEG) would drop the alpha channel.
    "transparent tiff": async () => raw(4).tiff({ compression: "lzw" }).toBuffer(),
  };
  const decodedFormat = async (bytes: Uint8Array) => {
    const format = (await sharp(bytes).metadata()).format;
    return format === "heif" ? "avif" : format;
  };
  const run = async (input: Buffer, options: ImageOptionsInput = {}) => processImage(new Uint8Array(input), imageOptionsSchema.parse(options));

  it.each([
    ["jpeg", "jpeg"],
    ["png", "png"],
    ["webp", "webp"],
    ["avif", "avif"],
    ["gif", "png"],
    ["opaque tiff", "jpeg"],
    ["transparent tiff", "png"],
  ] as const)("answers %s with %s, in one encode", async (source, expected) => {
    const result = await run(await sources[source]());
    expect(result.format).toBe(expected);
    expect(await decodedFormat(result.bytes)).toBe(expected);
    expect(result.stats).toMatchObject({ encodes: 1, candidates: null, format_chosen_by_auto: false });
  });

  it("keeps the smallest-candidate search for format auto", async () => {
    const result = await run(await sources.jpeg(), { format: "auto" });
    expect(result.stats.format_chosen_by_auto).toBe(true);
    expect(result.stats.candidates?.map((c) => c.format)).toEqual(["jpeg", "webp", "avif"]);
    expect(result.stats.encodes).toBe(3);
  });
});
