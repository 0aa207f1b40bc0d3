import { describe, expect, it } from "vitest";
import type { Probe } from "../image/fit-to-bytes.ts";
import { predictQuality } from "./predict-quality.ts";
import type { ScoreCurve } from "./score-curve.ts";

const prior: ScoreCurve = [[0, 0], [50, 60], [100, 90]];
const probe = (quality: number, score: number, target: number): Probe<{ score: number }> => ({ quality, value: { score }, passes: score < target });
const none = { passing: null, failing: null, previousFailing: null };

describe("predictQuality", () => {
  it("starts at the prior's quality for the target", () => {
    expect(predictQuality(none, 60, prior)).toBe(50);
    expect(predictQuality(none, 75, prior)).toBe(75);
  });

  it("shifts the prior through one probe and goes a little past it, toward the other side", () => {
    // This image scores 54 at q50, where the prior puts 54 at q45: it sits 5 qualities right of the prior, so 60 at q55, plus the overshoot.
    expect(predictQuality({ ...none, passing: probe(50, 54, 60) }, 60, prior)).toBeCloseTo(56.5, 6);
    // 66 at q50, where the prior puts 66 at q60: 10 qualities left of it, so 60 at q40, less the overshoot.
    expect(predictQuality({ ...none, failing: probe(50, 66, 60) }, 60, prior)).toBeCloseTo(38.5, 6);
  });

  it("interpolates between a probe below and one above the target, following the prior's bend, inside the bracket", () => {
    // Both probes sit on the prior: the prediction is the prior's own answer, across its knee.
    expect(predictQuality({ ...none, passing: probe(40, 48, 70), failing: probe(80, 78, 70) }, 70, prior)).toBeCloseTo(66.667, 2);
    // A probe pair that does not rise is split in the middle; a prediction never leaves the bracket.
    expect(predictQuality({ ...none, passing: probe(40, 65, 70), failing: probe(60, 64, 70) }, 70, prior)).toBe(50);
    const clamped = predictQuality({ ...none, passing: probe(40, 69.9, 70), failing: probe(44, 90, 70) }, 70, prior);
    expect(clamped).toBeGreaterThanOrEqual(40);
    expect(clamped).toBeLessThanOrEqual(44);
  });

  it("extrapolates down through two probes above the target when the curve is flatter than the prior (an image stored as JPEG)", () => {
    // 80 at q60 and 84 at q80: flatter than the prior (about 66 and 78 there), so the target 70 lies far below q60.
    const predicted = predictQuality({ ...none, failing: probe(60, 80, 70), previousFailing: probe(80, 84, 70) }, 70, prior);
    expect(predicted).toBeLessThan(38.5 + 60 - 80);
    expect(predictQuality({ ...none, failing: probe(60, 80, 70) }, 70, prior)).toBeGreaterThan(predicted);
  });
});
