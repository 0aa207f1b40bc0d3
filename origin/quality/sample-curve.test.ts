import { describe, expect, it } from "vitest";
import { qualityAlongSample } from "./sample-curve.ts";

// Storm.jpg of mate-backgrounds at 1600 px, WebP 4:2:0: the sample's estimates, and the whole
// output at q49 scoring 2.7 under its estimate there.
const STORM_PROBES = [
  { quality: 46, score: 69.12 },
  { quality: 52, score: 71.17 },
  { quality: 58, score: 72.78 },
  { quality: 70, score: 74.33 },
  { quality: 76, score: 76.31 },
];

describe("qualityAlongSample", () => {
  it("moves along the sample's own curve, shifted through the whole output", () => {
    const estimateAt49 = 69.12 + (71.17 - 69.12) / 2;
    const quality = qualityAlongSample(STORM_PROBES, { quality: 49, score: 67.45 }, 70)!;
    // The shifted aim, 70 + (estimateAt49 - 67.45), lies between the q52 and q58 probes.
    const wanted = 70 + estimateAt49 - 67.45;
    expect(quality).toBeCloseTo(52 + ((wanted - 71.17) * 6) / (72.78 - 71.17), 9);
    expect(quality).toBeGreaterThan(57);
    expect(quality).toBeLessThan(58);
    // An output right on its estimate is read straight off the probes.
    expect(qualityAlongSample(STORM_PROBES, { quality: 58, score: 72.78 }, 74.33)).toBe(70);
  });

  it("moves down as well as up", () => {
    // An output scoring 1 over its estimate at q70 reaches 72.17 where the sample's estimate is 71.17: at q52.
    expect(qualityAlongSample(STORM_PROBES, { quality: 70, score: 75.33 }, 72.17)).toBeCloseTo(52, 9);
  });

  it("goes past the probes along their end segment: Aqua at 2560 px, whose whole output at q69 fell 1.9 under its estimate", () => {
    const aqua = [{ quality: 64, score: 68.83 }, { quality: 70, score: 70.27 }, { quality: 76, score: 71.37 }];
    const wanted = 70 + (68.83 + ((70.27 - 68.83) * 5) / 6 - 68.23);
    expect(qualityAlongSample(aqua, { quality: 69, score: 68.23 }, 70)).toBeCloseTo(76 + ((wanted - 71.37) * 6) / (71.37 - 70.27), 9);
  });

  it("leaves to the prior what the probes do not span: an output outside them, a single probe", () => {
    expect(qualityAlongSample(STORM_PROBES, { quality: 80, score: 72 }, 70)).toBeNull();
    expect(qualityAlongSample([{ quality: 52, score: 71 }], { quality: 52, score: 68 }, 70)).toBeNull();
  });

  it("reads past a probe whose score does not rise over a lower quality's", () => {
    const dipped = [...STORM_PROBES, { quality: 64, score: 72.5 }];
    expect(qualityAlongSample(dipped, { quality: 58, score: 72.78 }, 74.33)).toBe(70);
  });
});
