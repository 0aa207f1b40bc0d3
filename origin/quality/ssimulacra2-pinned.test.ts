// Scores of the metric pinned to the value each pair scored before the kernels were last
// optimised: a faster metric must score every pair bit for bit as it did (a target moved by a
// change of rounding would move every calibrated level). The candidates are made here in plain
// JavaScript, not by a codec, so a library upgrade cannot move them.
import { describe, expect, it } from "vitest";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import type { RawImage } from "./raw-image.ts";
import { prepareReference, scaleTerms, scoreAgainst, ssimulacra2 } from "./ssimulacra2.ts";
import { scoreOfTerms } from "./ssimulacra2-terms.ts";
import { uniformNoise } from "./test-support/distortions.ts";

function photo(width: number, height: number, seed: number, channels: 3 | 4 = 3): RawImage {
  const rgb = photoLikePixels(width, height, seed);
  if (channels === 3) return { data: new Uint8Array(rgb), width, height, channels };
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    data.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
    // A soft-edged hole, so both the black and the white page are scored.
    data[p * 4 + 3] = Math.min(255, Math.round(Math.hypot((p % width) - width / 2, Math.floor(p / width) - height / 2) * 6));
  }
  return { data, width, height, channels };
}

/** Each colour value rounded to a multiple of `step`: banding, as a coarse quantiser makes. */
function posterised(image: RawImage, step: number): RawImage {
  const data = image.data.map((value, i) => (image.channels === 4 && i % 4 === 3 ? value : Math.min(255, Math.round(value / step) * step)));
  return { ...image, data };
}

/** Each pixel the mean of its 2x2 block: detail lost, as a downscale and upscale loses it. */
function blockAveraged(image: RawImage): RawImage {
  const { width, height, channels } = image;
  const data = new Uint8Array(image.data);
  for (let y = 0; y + 1 < height; y += 2) {
    for (let x = 0; x + 1 < width; x += 2) {
      for (let c = 0; c < channels; c++) {
        const at = (dx: number, dy: number) => ((y + dy) * width + x + dx) * channels + c;
        const mean = Math.round((image.data[at(0, 0)]! + image.data[at(1, 0)]! + image.data[at(0, 1)]! + image.data[at(1, 1)]!) / 4);
        for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) data[at(dx, dy)] = mean;
      }
    }
  }
  return { ...image, data };
}

const IMAGES = {
  "640x427 RGB": photo(640, 427, 11),
  "203x117 RGB": photo(203, 117, 7),
  "23x9 RGB": photo(23, 9, 5),
  "301x200 RGBA": photo(301, 200, 3, 4),
};

const DISTORTIONS: Record<string, (image: RawImage) => RawImage> = {
  "noise 8": (image) => uniformNoise(image, 8),
  "noise 24": (image) => uniformNoise(image, 24),
  "posterised 12": (image) => posterised(image, 12),
  "2x2 blocks": blockAveraged,
};

// Recorded from the implementation of commit 79730aa (before the kernels were made faster).
const PINNED: Record<string, number> = {
  "640x427 RGB noise 8": 75.1282130328602,
  "640x427 RGB noise 24": 23.249898787437758,
  "640x427 RGB posterised 12": 82.41195668547442,
  "640x427 RGB 2x2 blocks": 90.01854984431976,
  "203x117 RGB noise 8": 81.62092167002567,
  "203x117 RGB noise 24": 40.969719294566254,
  "203x117 RGB posterised 12": 88.62544114232325,
  "203x117 RGB 2x2 blocks": 87.26109678386743,
  "23x9 RGB noise 8": 71.7910382872831,
  "23x9 RGB noise 24": 34.63626986969332,
  "23x9 RGB posterised 12": 73.88776046677347,
  "23x9 RGB 2x2 blocks": 70.18322963871202,
  "301x200 RGBA noise 8": 79.81461417696899,
  "301x200 RGBA noise 24": 35.440976292688774,
  "301x200 RGBA posterised 12": 86.63235358627337,
  "301x200 RGBA 2x2 blocks": 89.03316351754137,
};

describe("ssimulacra2 pinned scores", () => {
  it("scores each generated pair exactly as the implementation it replaced, one call or prepared, whole or split by scale", () => {
    for (const [imageName, image] of Object.entries(IMAGES)) {
      const prepared = prepareReference(image);
      const finest = prepareReference(image, { share: "finest", keepFinestScale: false });
      const coarser = prepareReference(image, { share: "coarser" });
      for (const [distortionName, distort] of Object.entries(DISTORTIONS)) {
        const label = `${imageName} ${distortionName}`;
        const candidate = distort(image);
        const score = ssimulacra2(image, candidate);
        expect(score, label).toBe(PINNED[label]);
        expect(scoreAgainst(prepared, candidate), label).toBe(score);
        expect(scoreOfTerms([scaleTerms(finest, candidate), scaleTerms(coarser, candidate)]), label).toBe(score);
      }
    }
  });
});
