import { describe, expect, it } from "vitest";
import { ProblemError } from "../problems/catalogue.ts";
import { TRANSFORM_TOKENS } from "./registry.ts";
import { MAX_TRANSFORM_LENGTH, fitValues, formatTokenValues, gravityValues, placeholderValues, rotateValues } from "./token-values.ts";
import { parseTransform } from "./tokens.ts";
import { QUALITY_LEVELS } from "../perceptual-quality.ts";

function rejection(segment: string): ProblemError {
  try {
    parseTransform(segment);
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error(`"${segment}" was accepted`);
}

describe("parseTransform", () => {
  it("reads every token", () => {
    expect(parseTransform("w_400,h_300,q_60,f_webp,fit_cover,g_northeast,bl_2.5,sh_1,r_90,dpr_1.5,s_AAAAAAAAAAAAAAAAAAAAAA")).toEqual({
      width: 400,
      height: 300,
      quality: 60,
      format: "webp",
      fit: "cover",
      gravity: "northeast",
      blur: 2.5,
      sharpen: 1,
      rotate: 90,
      dpr: 1.5,
      signature: "AAAAAAAAAAAAAAAAAAAAAA",
    });
  });

  it("accepts each value of each value set", () => {
    for (const f of formatTokenValues) expect(parseTransform(`f_${f}`).format).toBe(f === "jpg" ? "jpeg" : f);
    for (const fit of fitValues) expect(parseTransform(`fit_${fit}`).fit).toBe(fit);
    for (const g of gravityValues) expect(parseTransform(`g_${g}`).gravity).toBe(g);
    for (const r of rotateValues) expect(parseTransform(`r_${r}`).rotate).toBe(r === "auto" ? "auto" : Number(r));
    for (const ph of placeholderValues) expect(parseTransform(`ph_${ph}`).placeholder).toBe(ph);
  });

  it("refuses a placeholder kind it does not make", () => {
    expect(rejection("ph_blurhash").errors).toEqual([{ pointer: "/transform/ph_blurhash", detail: "ph_ must be one of lqip" }]);
    expect(rejection("ph").errors?.[0]?.pointer).toBe("/transform/ph");
  });

  it("reads q_auto and each level as written", () => {
    expect(parseTransform("q_auto").quality).toBe("auto");
    for (const level of QUALITY_LEVELS) expect(parseTransform(`q_auto:${level}`).quality).toBe(`auto:${level}`);
  });

  it("refuses an auto level it does not have, naming the spellings it takes", () => {
    for (const segment of ["q_auto:bogus", "q_auto:", "q_AUTO", "q_auto:eco:low", "q_autoeco"]) {
      expect(rejection(segment).errors).toEqual([
        { pointer: `/transform/${segment}`, detail: "q_ must be a whole number from 1 to 100, or one of auto, auto:low, auto:eco, auto:good, auto:best" },
      ]);
    }
  });

  it("accepts the bounds of every numeric range", () => {
    expect(parseTransform("w_1,h_8192")).toMatchObject({ width: 1, height: 8192 });
    expect(parseTransform("q_1").quality).toBe(1);
    expect(parseTransform("q_100").quality).toBe(100);
    expect(parseTransform("bl_0.3,sh_10")).toMatchObject({ blur: 0.3, sharpen: 10 });
    expect(parseTransform("bl_100,sh_0.3")).toMatchObject({ blur: 100, sharpen: 0.3 });
    expect(parseTransform("dpr_1").dpr).toBe(1);
    expect(parseTransform("dpr_4").dpr).toBe(4);
    expect(parseTransform("dpr_2.25").dpr).toBe(2.25);
  });

  it.each([
    ["w_0", "/transform/w_0"],
    ["w_8193", "/transform/w_8193"],
    ["h_-5", "/transform/h_-5"],
    ["w_1e3", "/transform/w_1e3"],
    ["w_400.5", "/transform/w_400.5"],
    ["w_", "/transform/w_"],
    ["w", "/transform/w"],
    ["w_99999999999999999999", "/transform/w_99999999999999999999"],
    ["q_0", "/transform/q_0"],
    ["q_101", "/transform/q_101"],
    ["f_gif", "/transform/f_gif"],
    ["f_WEBP", "/transform/f_WEBP"],
    ["fit_crop", "/transform/fit_crop"],
    ["g_n", "/transform/g_n"],
    ["bl_0.2", "/transform/bl_0.2"],
    ["bl_101", "/transform/bl_101"],
    ["bl_1.234", "/transform/bl_1.234"],
    ["bl_.5", "/transform/bl_.5"],
    ["sh_11", "/transform/sh_11"],
    ["r_45", "/transform/r_45"],
    ["r_0", "/transform/r_0"],
    ["dpr_0.5", "/transform/dpr_0.5"],
    ["dpr_4.01", "/transform/dpr_4.01"],
    ["dpr_NaN", "/transform/dpr_NaN"],
    ["s_short", "/transform/s_short"],
    ["x_1", "/transform/x_1"],
    ["width_400", "/transform/width_400"],
    ["a/b~c", "/transform/a~1b~0c"],
  ])("refuses %s with pointer %s", (segment, pointer) => {
    const problem = rejection(segment);
    expect(problem.slug).toBe("transform_invalid");
    expect(problem.status).toBe(400);
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors?.[0]?.pointer).toBe(pointer);
    expect(problem.message).toBe(problem.errors?.[0]?.detail);
  });

  it("refuses duplicates, even when they agree", () => {
    const problem = rejection("w_400,f_webp,w_400");
    expect(problem.errors).toEqual([{ pointer: "/transform/w_400", detail: "w_ is given more than once" }]);
    expect(rejection("f_jpg,f_jpeg").errors?.[0]?.pointer).toBe("/transform/f_jpeg");
  });

  it("refuses empty segments and empty tokens", () => {
    expect(rejection("").errors?.[0]?.pointer).toBe("/transform");
    for (const segment of ["w_400,,h_300", ",w_400", "w_400,", ","]) {
      const problem = rejection(segment);
      expect(problem.errors?.some((e) => e.pointer === "/transform" && e.detail.startsWith("empty token"))).toBe(true);
    }
  });

  it("lists every bad token at once", () => {
    const problem = rejection("w_0,q_500,zz_1,h_300");
    expect(problem.errors?.map((e) => e.pointer)).toEqual(["/transform/w_0", "/transform/q_500", "/transform/zz_1"]);
    expect(problem.message).toMatch(/3 transform tokens/);
  });

  it("names the known prefixes for an unknown token", () => {
    const detail = rejection("zz_10").errors?.[0]?.detail ?? "";
    for (const { prefix } of TRANSFORM_TOKENS) expect(detail).toContain(`${prefix}_`);
  });

  it("refuses explicit sizes beyond 40 MP", () => {
    expect(parseTransform("w_8000,h_5000")).toMatchObject({ width: 8000, height: 5000 });
    const problem = rejection("w_8000,h_5001");
    expect(problem.errors?.[0]?.pointer).toBe("/transform");
    expect(problem.message).toMatch(/40 MP/);
  });

  it("refuses an overlong segment without parsing it", () => {
    const problem = rejection("w_1,".repeat(MAX_TRANSFORM_LENGTH));
    expect(problem.errors).toHaveLength(1);
    expect(problem.message).toMatch(/longer than/);
  });

  it("is a problem body a client can read", () => {
    const body = rejection("w_0").toBody("req_1");
    expect(body).toMatchObject({ type: "https://pixelpress.dev/problems/transform_invalid", status: 400, request_id: "req_1" });
  });
});
