import { describe, expect, it } from "vitest";
import { canonicalTransform, resolveTransform } from "./canonical.ts";
import { DEFAULT_QUALITY, MAX_OUTPUT_PIXELS, MAX_OUTPUT_SIDE } from "./token-values.ts";
import { parseTransform } from "./tokens.ts";

const canonical = (segment: string) => canonicalTransform(parseTransform(segment));

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe("canonicalTransform", () => {
  it("does not depend on token order", () => {
    expect(canonical("w_400,f_webp")).toBe(canonical("f_webp,w_400"));
    const tokens = ["w_640", "h_480", "fit_cover", "g_auto", "q_55", "f_avif", "r_270", "bl_3", "sh_0.5"];
    const results = new Set(permutations(tokens.slice(0, 6)).map((order) => canonical([...order, ...tokens.slice(6)].join(","))));
    expect(results.size).toBe(1);
    expect(canonical([...tokens].reverse().join(","))).toBe([...results][0]);
  });

  it("drops defaults and aliases to one spelling", () => {
    expect(canonical(`w_400,q_${DEFAULT_QUALITY},r_auto,fit_inside,g_center`)).toBe(canonical("w_400"));
    expect(canonical("w_400,h_300,fit_inside")).toBe(canonical("h_300,w_400"));
    expect(canonical("f_jpg")).toBe(canonical("f_jpeg"));
    expect(canonical("w_0400")).toBe(canonical("w_400"));
    expect(canonical("bl_1.50")).toBe(canonical("bl_1.5"));
    expect(canonical("dpr_1,w_400")).toBe(canonical("w_400"));
  });

  it("keeps everything that changes the output", () => {
    const distinct = ["w_400", "w_401", "h_400", "w_400,h_300", "w_400,h_300,fit_cover", "w_400,h_300,fit_cover,g_north", "w_400,h_300,fit_contain", "w_400,h_300,fit_fill", "q_75", "f_webp", "f_auto", "r_90", "r_180", "bl_2", "sh_2"];
    expect(new Set(distinct.map(canonical)).size).toBe(distinct.length);
  });

  it("writes an overlay as l_, lg_, lw_, lo_ and folds away what cannot draw one", () => {
    const id = "file_8kT2bQ7xLw3mZr9Xc1Vd";
    expect(canonical(`lo_40,lw_25,lg_southeast,l_${id},w_400`)).toBe(`w_400,l_${id},lg_southeast,lw_25,lo_40`);
    // Defaults: centred, fully opaque.
    expect(canonical(`w_400,l_${id},lg_center,lo_100`)).toBe(`w_400,l_${id}`);
    // lg_, lw_ and lo_ without l_ describe nothing; an overlay at opacity 0 draws nothing.
    expect(canonical("w_400,lg_north,lw_20,lo_50")).toBe(canonical("w_400"));
    expect(canonical(`w_400,l_${id},lo_0`)).toBe(canonical("w_400"));
    const distinct = [`l_${id}`, `l_${id}x`, `l_${id},lg_north`, `l_${id},lw_20`, `l_${id},lw_21`, `l_${id},lo_50`, "w_1"];
    expect(new Set(distinct.map(canonical)).size).toBe(distinct.length);
    expect(resolveTransform(parseTransform(`l_${id},lw_20`)).overlay).toEqual({ fileId: id, gravity: "center", width: 20, opacity: 100 });
  });

  it("refuses an overlay token that is not a file id, a compass name or in range", () => {
    for (const segment of ["l_abc", "l_file_", "l_file_a/b", "lg_auto", "lw_0", "lw_101", "lo_101", "lo_-1"]) expect(() => parseTransform(segment), segment).toThrow();
  });

  it("drops fit and gravity where they cannot change the image", () => {
    expect(canonical("w_400,fit_cover,g_north")).toBe(canonical("w_400"));
    expect(canonical("w_400,h_300,g_north")).toBe(canonical("w_400,h_300"));
    expect(canonical("w_400,h_300,fit_fill,g_east")).toBe(canonical("w_400,h_300,fit_fill"));
    expect(canonical("w_400,h_300,fit_contain,g_auto")).toBe(canonical("w_400,h_300,fit_contain"));
    expect(canonical("w_400,h_300,fit_contain,g_south")).not.toBe(canonical("w_400,h_300,fit_contain"));
    expect(canonical("w_400,h_300,fit_cover,g_auto")).not.toBe(canonical("w_400,h_300,fit_cover"));
  });

  it("is a valid transform that canonicalizes to itself", () => {
    for (const segment of ["f_webp,w_400", "dpr_2.5,h_333,w_123,fit_cover,g_southwest", "sh_9.99,bl_0.3,r_270,q_1,f_png"]) {
      const once = canonical(segment);
      expect(canonical(once)).toBe(once);
      expect(resolveTransform(parseTransform(once))).toEqual(resolveTransform(parseTransform(segment)));
    }
  });

  it("is empty when nothing would change", () => {
    expect(canonical("r_auto")).toBe("");
    expect(canonical("dpr_3")).toBe("");
  });

  it("puts ph_lqip last and folds away the q_ and f_ a placeholder ignores", () => {
    expect(canonical("ph_lqip,w_400,h_300,fit_cover")).toBe("w_400,h_300,fit_cover,ph_lqip");
    expect(canonical("ph_lqip,q_30,f_avif,w_400")).toBe(canonical("w_400,ph_lqip"));
    expect(canonical("ph_lqip")).toBe("ph_lqip");
    expect(canonical("w_400,ph_lqip")).not.toBe(canonical("w_400"));
    expect(resolveTransform(parseTransform("ph_lqip,f_auto")).format).toBeUndefined();
  });

  it("spells each q_auto level one way: q_auto for good, q_auto:<level> for the others", () => {
    expect(canonical("q_auto:good,w_400")).toBe("w_400,q_auto");
    expect(canonical("w_400,q_auto")).toBe("w_400,q_auto");
    expect(canonical("q_auto:eco")).toBe("q_auto:eco");
    expect(canonical("q_auto:low,f_webp")).toBe("q_auto:low,f_webp");
    expect(canonical("q_auto:best")).toBe("q_auto:best");
    const distinct = ["q_auto", "q_auto:low", "q_auto:eco", "q_auto:best", `q_${DEFAULT_QUALITY}`, "q_72"];
    expect(new Set(distinct.map(canonical)).size).toBe(distinct.length);
    for (const segment of distinct) expect(canonical(canonical(segment) || "r_auto")).toBe(canonical(segment));
  });

  it("resolves q_auto to its level, and folds it away under a placeholder", () => {
    expect(resolveTransform(parseTransform("q_auto")).quality).toEqual({ auto: "good" });
    expect(resolveTransform(parseTransform("q_auto:eco")).quality).toEqual({ auto: "eco" });
    expect(resolveTransform(parseTransform("q_40")).quality).toBe(40);
    expect(canonical("w_400,q_auto:best,ph_lqip")).toBe("w_400,ph_lqip");
  });

  it("leaves the signature out", () => {
    expect(canonical("w_400,s_AAAAAAAAAAAAAAAAAAAAAA")).toBe(canonical("w_400"));
  });
});

describe("dpr", () => {
  it("multiplies width and height and disappears", () => {
    expect(canonical("w_400,h_300,dpr_2")).toBe(canonical("w_800,h_600"));
    expect(canonical("w_333,dpr_1.5")).toBe(canonical("w_500"));
    expect(resolveTransform(parseTransform("h_101,dpr_1.25"))).toMatchObject({ width: undefined, height: 126 });
  });

  it("scales an oversized product down to the side limit, keeping the aspect ratio", () => {
    const op = resolveTransform(parseTransform("w_6000,h_3000,dpr_2"));
    expect(op.width).toBe(MAX_OUTPUT_SIDE);
    expect(op.height).toBe(MAX_OUTPUT_SIDE / 2);
    expect(resolveTransform(parseTransform("w_5000,dpr_4")).width).toBe(MAX_OUTPUT_SIDE);
  });

  it("scales an oversized product down to the pixel limit", () => {
    for (const segment of ["w_6000,h_6000,dpr_1.5", "w_4000,h_4000,dpr_4", "w_6324,h_6324,dpr_1.01", "w_8192,h_4882,dpr_1"]) {
      const op = resolveTransform(parseTransform(segment));
      const pixels = op.width! * op.height!;
      expect(pixels).toBeLessThanOrEqual(MAX_OUTPUT_PIXELS);
      expect(pixels).toBeGreaterThan(MAX_OUTPUT_PIXELS * 0.999);
      expect(Math.max(op.width!, op.height!)).toBeLessThanOrEqual(MAX_OUTPUT_SIDE);
    }
  });
});
