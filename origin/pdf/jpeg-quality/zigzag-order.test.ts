import { describe, expect, it } from "vitest";
import { ZIGZAG_TO_NATURAL } from "./zigzag-order.ts";

describe("ZIGZAG_TO_NATURAL", () => {
  it("is a permutation of the 64 coefficient positions", () => {
    expect([...ZIGZAG_TO_NATURAL].sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });

  it("starts and ends as in T.81 figure A.6", () => {
    expect(ZIGZAG_TO_NATURAL.slice(0, 10)).toEqual([0, 1, 8, 16, 9, 2, 3, 10, 17, 24]);
    expect(ZIGZAG_TO_NATURAL.slice(-4)).toEqual([47, 55, 62, 63]);
  });

  it("only ever steps to a neighbouring cell", () => {
    for (let k = 1; k < 64; k++) {
      const from = ZIGZAG_TO_NATURAL[k - 1] as number;
      const to = ZIGZAG_TO_NATURAL[k] as number;
      const rowStep = Math.abs(Math.floor(to / 8) - Math.floor(from / 8));
      const columnStep = Math.abs((to % 8) - (from % 8));
      expect(Math.max(rowStep, columnStep)).toBe(1);
    }
  });
});
