// The geometry and colour tokens' grammars and canonical spellings: what each reads, what it
// refuses (naming the token), and which spellings mean the same transform.
import { describe, expect, it } from "vitest";
import { ProblemError } from "../problems/catalogue.ts";
import { canonicalTransform } from "./canonical.ts";
import { parseTransform } from "./tokens.ts";

const canonical = (segment: string) => canonicalTransform(parseTransform(segment));

function refusal(segment: string): { pointer: string; detail: string } | undefined {
  try {
    parseTransform(segment);
  } catch (error) {
    if (error instanceof ProblemError) return error.errors?.[0];
    throw error;
  }
  throw new Error(`"${segment}" was accepted`);
}

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
