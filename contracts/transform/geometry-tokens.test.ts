// The geometry tokens' grammars and canonical spellings: what each reads, what it
// refuses (naming the token), and which spellings mean the same transform.
import { describe, expect, it } from "vitest";
import { canonical, refusal } from "./test-support/parsed-segment.ts";
import { parseTransform } from "./tokens.ts";

describe("crop_", () => {
  it("reads x, y, width and height", () => {
    expect(parseTransform("crop_10x20x300x200").crop).toEqual({ x: 10, y: 20, width: 300, height: 200 });
    expect(canonical("crop_0010x020x300x0200")).toBe("crop_10x20x300x200");
  });

  it.each(["crop_10x20x300", "crop_10x20x300x200x5", "crop_10x20x0x200", "crop_10x20x300x-2", "crop_-1x0x5x5", "crop_1.5x0x5x5", "crop_0x0x65536x5", "crop_", "crop_axbxcxd", "crop_10X20X30X40"])(
    "refuses %s, naming the token",
    (segment) => {
      const error = refusal(segment);
      expect(error?.pointer).toBe(`/transform/${segment}`);
      expect(error?.detail).toMatch(/^crop_ must be x, y, width and height/);
    },
  );
});

describe("g_<x>x<y>", () => {
  it("reads a focal point beside the compass names", () => {
    expect(parseTransform("g_0.25x0.8").gravity).toEqual({ x: 0.25, y: 0.8 });
    expect(parseTransform("g_north").gravity).toBe("north");
    expect(canonical("w_400,h_300,fit_cover,g_0.25x0.80")).toBe("w_400,h_300,fit_cover,g_0.25x0.8");
  });

  it("spells a point at the centre, a corner or an edge's middle as its compass name", () => {
    expect(canonical("w_400,h_300,fit_cover,g_0.5x0.5")).toBe(canonical("w_400,h_300,fit_cover"));
    expect(canonical("w_400,h_300,fit_cover,g_0.50x0.50")).toBe(canonical("w_400,h_300,fit_cover"));
    expect(canonical("w_400,h_300,fit_cover,g_0.5x0")).toBe("w_400,h_300,fit_cover,g_north");
    expect(canonical("w_400,h_300,fit_cover,g_1.00x1")).toBe("w_400,h_300,fit_cover,g_southeast");
    expect(canonical("w_400,h_300,fit_cover,g_0x0.5")).toBe("w_400,h_300,fit_cover,g_west");
    expect(canonical("w_400,h_300,fit_cover,g_00x01")).toBe("w_400,h_300,fit_cover,g_southwest");
  });

  it("folds away where there is no cover crop to place", () => {
    for (const segment of ["w_400,g_0.3x0.3", "w_400,h_300,g_0.3x0.3", "w_400,h_300,fit_contain,g_0.3x0.3", "w_400,h_300,fit_fill,g_0.3x0.3"]) {
      expect(canonical(segment), segment).not.toContain("g_");
    }
  });

  it.each(["g_1.5x0.5", "g_0.5", "g_0.5x0.5x0.5", "g_0.123x0.5", "g_-0.1x0.5", "g_up", "g_0.5x", "g_.5x.5"])("refuses %s, naming the token", (segment) => {
    const error = refusal(segment);
    expect(error?.pointer).toBe(`/transform/${segment}`);
    expect(error?.detail).toMatch(/^g_ must be one of center, .* or a focal point <x>x<y>/);
  });
});

describe("trim_", () => {
  it("reads a tolerance from 0 to 100, trim_0 included (an exact colour)", () => {
    expect(parseTransform("trim_0").trim).toBe(0);
    expect(canonical("trim_010")).toBe("trim_10");
    expect(canonical("trim_100,crop_0x0x10x10")).toBe("crop_0x0x10x10,trim_100");
  });

  it.each(["trim_101", "trim_-1", "trim_5.5", "trim_", "trim_auto"])("refuses %s, naming the token", (segment) => {
    expect(refusal(segment)).toEqual({ pointer: `/transform/${segment}`, detail: "trim_ must be a whole number from 0 to 100" });
  });
});
