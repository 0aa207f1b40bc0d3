import { describe, expect, it } from "vitest";
import { formatCost, formatSizeChange } from "./format.ts";

describe("console number formats", () => {
  it("writes a size ratio as the change it is", () => {
    expect([0.176, 1, 1.03].map(formatSizeChange)).toEqual(["82.4% smaller", "same size", "3.0% larger"]);
  });

  it("writes micro-dollars as the API's one money format does, to the last digit that is not zero", () => {
    expect([800, 0, 20_000, 1_234_567].map(formatCost)).toEqual(["$0.0008", "$0.00", "$0.02", "$1.234567"]);
  });
});
