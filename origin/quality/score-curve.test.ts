import { describe, expect, it } from "vitest";
import { qualityAtScore } from "./score-curve.ts";

describe("qualityAtScore", () => {
  const curve = [[20, 30], [50, 60], [100, 90]] as const;

  it("interpolates between the points and reads them exactly", () => {
    expect(qualityAtScore(curve, 60)).toBe(50);
    expect(qualityAtScore(curve, 45)).toBe(35);
    expect(qualityAtScore(curve, 75)).toBe(75);
  });

  it("extends past either end along the end segment", () => {
    expect(qualityAtScore(curve, 20)).toBe(10);
    expect(qualityAtScore(curve, 96)).toBe(110);
  });
});
