import { describe, expect, it } from "vitest";
import { monthUsageLine } from "./usage-summary.ts";

describe("the month's usage line", () => {
  it("counts calls, and names the free ones instead of calling them charges", () => {
    const rows = [
      { operation: "image.optimize", count: 3, micros: 2400 },
      { operation: "pdf.analyze", count: 2, micros: 0 },
    ];
    expect(monthUsageLine(rows, 2400)).toBe("5 calls (2 free: pdf.analyze), $0.0024");
    expect(monthUsageLine([{ operation: "image.optimize", count: 1, micros: 800 }], 800)).toBe("1 call, $0.0008");
    expect(monthUsageLine([], 0)).toBe("0 calls, $0.00");
  });
});
