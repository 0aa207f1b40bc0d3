import { describe, expect, it } from "vitest";
import { resolveTransform } from "./canonical.ts";
import { outputSize } from "./output-size.ts";
import { parseTransform } from "./tokens.ts";

const source = { width: 1200, height: 800 };
const sizeOf = (segment: string, from = source) => outputSize(from, resolveTransform(parseTransform(segment)));

describe("outputSize", () => {
  it("keeps the aspect ratio inside the box and never enlarges", () => {
    expect(sizeOf("w_600")).toEqual({ width: 600, height: 400 });
    expect(sizeOf("h_200")).toEqual({ width: 300, height: 200 });
    expect(sizeOf("w_600,h_600")).toEqual({ width: 600, height: 400 });
    expect(sizeOf("w_2400")).toEqual({ width: 1200, height: 800 });
    expect(sizeOf("w_333")).toEqual({ width: 333, height: 222 });
  });

  it("gives exactly the box for cover, contain and fill, enlarging if asked", () => {
    expect(sizeOf("w_300,h_300,fit_cover")).toEqual({ width: 300, height: 300 });
    expect(sizeOf("w_300,h_100,fit_contain")).toEqual({ width: 300, height: 100 });
    expect(sizeOf("w_2000,h_100,fit_fill")).toEqual({ width: 2000, height: 100 });
  });

  it("folds dpr in and turns the source for a quarter rotation", () => {
    expect(sizeOf("w_300,dpr_2")).toEqual({ width: 600, height: 400 });
    expect(sizeOf("w_400,r_90")).toEqual({ width: 400, height: 600 });
    expect(sizeOf("r_270")).toEqual({ width: 800, height: 1200 });
    expect(sizeOf("f_webp")).toEqual(source);
  });
});
