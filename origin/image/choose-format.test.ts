import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { autoCandidates, chooseSmallest, profileContent } from "./choose-format.ts";
import type { RenderedPixels } from "./pipeline.ts";
import { photoLikePixels } from "./test-support/synthetic-images.ts";

const width = 200;
const height = 150;

function rendered(data: Buffer, channels: 1 | 2 | 3 | 4): RenderedPixels {
  return { data, width, height, channels, has_alpha: channels === 2 || channels === 4, orientation_applied: null };
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
      autoCandidates(profile, 70).map((t) => `${t.format}${t.lossless ? "-lossless" : `@${t.quality}`}`);
    expect(formats({ alpha: "none", is_graphic: true })).toEqual(["png-lossless", "webp-lossless"]);
    expect(formats({ alpha: "transparent", is_graphic: false })).toEqual(["webp@70", "avif@70"]);
    expect(formats({ alpha: "opaque", is_graphic: false })).toEqual(["jpeg@70", "webp@70", "avif@70"]);
  });
});

describe("chooseSmallest", () => {
  it("encodes every candidate, reports each size and keeps the smallest", async () => {
    const raw = photoLikePixels(width, height);
    const encodeTarget = async (target: { format: "jpeg" | "webp" | "avif" | "png"; quality: number }) =>
      new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(target.format, { quality: target.quality }).toBuffer());
    const chosen = await chooseSmallest(autoCandidates({ alpha: "none", is_graphic: false }, 76), encodeTarget);
    expect(chosen.candidates.map((c) => c.format)).toEqual(["jpeg", "webp", "avif"]);
    const smallest = Math.min(...chosen.candidates.map((c) => c.output_bytes));
    expect(chosen.bytes.byteLength).toBe(smallest);
    expect(chosen.candidates.find((c) => c.output_bytes === smallest)?.format).toBe(chosen.target.format);
    expect((await sharp(chosen.bytes).metadata()).format).toBe(chosen.target.format === "avif" ? "heif" : chosen.target.format);
  });
});
