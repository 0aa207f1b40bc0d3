import { describe, expect, it } from "vitest";
import { canonicalTransform, resolveTransform } from "./canonical.ts";
import { originTransformOptions } from "../origin/image-transform.ts";
import { askedFormat, keepsAnimation } from "./output-format.ts";
import { parseTransform } from "./tokens.ts";

const canonical = (segment: string) => canonicalTransform(parseTransform(segment));

describe("anim_false", () => {
  it("parses, resolves to the first frame and keeps its place in the canonical order", () => {
    expect(parseTransform("anim_false").animated).toBe(false);
    expect(resolveTransform(parseTransform("w_400")).animated).toBe(true);
    expect(canonical("anim_false,sh_1,w_400")).toBe("w_400,sh_1,anim_false");
    expect(canonical("w_400,anim_false")).not.toBe(canonical("w_400"));
    expect(canonical("anim_false")).toBe("anim_false");
  });

  it("refuses any other value", () => {
    for (const segment of ["anim_true", "anim", "anim_0"]) {
      expect(() => parseTransform(segment)).toThrowError(/anim_ must be one of false/);
    }
  });

  it("reaches the origin with whether f_auto chose the format", () => {
    expect(originTransformOptions(resolveTransform(parseTransform("f_auto,anim_false")), "avif")).toMatchObject({ format_auto: true, animated: false, output: "avif" });
    expect(originTransformOptions(resolveTransform(parseTransform("f_avif")), "avif")).toMatchObject({ format_auto: false, animated: true });
  });
});

describe("keepsAnimation", () => {
  it("keeps it for f_auto of any class, no f_ and f_webp; a named still format takes the first frame", () => {
    const keeps = (choice: Parameters<typeof askedFormat>[0], formatAuto: boolean) => keepsAnimation(askedFormat(choice, formatAuto));
    expect((["avif", "webp", "legacy"] as const).every((choice) => keeps(choice, true))).toBe(true);
    expect(keeps("source", false)).toBe(true);
    expect(keeps("webp", false)).toBe(true);
    expect((["jpeg", "png", "avif"] as const).some((choice) => keeps(choice, false))).toBe(false);
  });

  it("answers optimize's format option by the same rule", () => {
    expect((["auto", "source", "webp"] as const).every(keepsAnimation)).toBe(true);
    expect((["jpeg", "png", "avif"] as const).some(keepsAnimation)).toBe(false);
  });
});
