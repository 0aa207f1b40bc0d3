import { describe, expect, it } from "vitest";
import { ProblemError } from "../problems/catalogue.ts";
import { canonicalTransform, urlTransform } from "./canonical.ts";
import { expandPreset, presetTransform, readPresetTransform, unknownPreset } from "./preset.ts";
import { parseTransform } from "./tokens.ts";

const expansion = (preset: string, url: string) => canonicalTransform(expandPreset(presetTransform(preset), parseTransform(url)));

describe("a preset's transform", () => {
  it("is kept as the canonical form the URL parser reads", () => {
    expect(presetTransform("f_jpg,h_0200,w_300,fit_cover,q_76")).toBe("w_300,h_200,fit_cover,f_jpeg");
    expect(presetTransform("w_400,dpr_2")).toBe("w_800");
  });

  it("keeps w_auto and dpr_auto as written, for each request's hints to decide, not as the fallback", () => {
    expect(presetTransform("f_webp,w_auto:800:320-1280")).toBe("w_auto:800:320-1280,f_webp");
    expect(presetTransform("w_400,dpr_auto")).toBe("w_400,dpr_auto");
    expect(expandPreset(presetTransform("w_auto:800,f_webp"), parseTransform("t_hero,q_60")).width).toEqual({ auto: true, fallback: 800 });
  });

  it("refuses another preset, a signature, a transform that changes nothing, and what a URL refuses, pointing at each token", () => {
    expect(readPresetTransform("t_other,w_100").errors).toEqual([{ pointer: "/transform/t_other", detail: "a preset cannot name another preset" }]);
    expect(readPresetTransform(`w_100,s_${"A".repeat(22)}`).errors?.[0]?.pointer).toBe(`/transform/s_${"A".repeat(22)}`);
    expect(readPresetTransform("r_auto").errors?.[0]?.detail).toMatch(/changes nothing/);
    expect(readPresetTransform("w_0,zz_1").errors?.map((error) => error.pointer)).toEqual(["/transform/w_0", "/transform/zz_1"]);
    expect(() => presetTransform("t_x")).toThrow(ProblemError);
  });
});

describe("a URL naming a preset", () => {
  it("is the preset's expansion when it names nothing else", () => {
    expect(expansion("w_300,h_200,fit_cover,f_webp", "t_thumb")).toBe("w_300,h_200,fit_cover,f_webp");
  });

  it("replaces the preset's tokens of the same prefix and keeps the rest", () => {
    expect(expansion("w_300,h_200,fit_cover,f_webp", "t_thumb,f_avif")).toBe("w_300,h_200,fit_cover,f_avif");
    expect(expansion("w_300,h_200,fit_cover,q_50", "t_thumb,w_100,q_76")).toBe("w_100,h_200,fit_cover");
    expect(expansion("w_300,h_200", "fit_cover,t_thumb")).toBe("w_300,h_200,fit_cover");
  });

  it("multiplies the size that results by dpr_", () => {
    expect(expansion("w_300,h_200,fit_cover", "t_thumb,dpr_2")).toBe("w_600,h_400,fit_cover");
    expect(expansion("w_300", "t_thumb,w_100,dpr_3")).toBe("w_300");
  });

  it("is written and signed with the name and every other token as given, in registry order", () => {
    expect(urlTransform(parseTransform("f_webp,t_thumb"))).toBe("t_thumb,f_webp");
    // Each of these could override the preset, so none is folded away.
    expect(urlTransform(parseTransform("q_76,fit_cover,t_thumb,dpr_2"))).toBe("t_thumb,fit_cover,q_76,dpr_2");
    expect(urlTransform(parseTransform(`t_thumb,s_${"A".repeat(22)}`))).toBe("t_thumb");
    expect(urlTransform(parseTransform("w_400,q_76"))).toBe("w_400");
  });

  it("names the token when the preset is unknown", () => {
    const problem = unknownPreset("thumb");
    expect(problem.slug).toBe("transform_invalid");
    expect(problem.errors?.map(({ pointer }) => pointer)).toEqual(["/transform/t_thumb"]);
    expect(problem.errors?.[0]?.detail).toContain("t_thumb");
  });
});
