// The colour tokens' grammars and canonical spellings: what each reads, what it refuses (naming
// the token), and where each folds away because it cannot change the output.
import { describe, expect, it } from "vitest";
import { canonical, refusal } from "./test-support/parsed-segment.ts";
import { parseTransform } from "./tokens.ts";

describe("bg_<RRGGBB>", () => {
  it("reads six hex digits in either case and spells them in lower case", () => {
    expect(parseTransform("bg_FF8800").background).toBe("ff8800");
    expect(canonical("w_10,h_10,fit_contain,bg_FF8800")).toBe("w_10,h_10,fit_contain,bg_ff8800");
    expect(canonical("w_10,h_10,fit_contain,bg_Ff8800")).toBe(canonical("bg_ff8800,w_10,h_10,fit_contain"));
  });

  it("is kept with fit_contain or an output that may be JPEG, and folds away elsewhere", () => {
    expect(canonical("f_jpeg,bg_000000")).toBe("f_jpeg,bg_000000");
    expect(canonical("f_auto,bg_000000")).toBe("f_auto,bg_000000");
    expect(canonical("bg_000000")).toBe("bg_000000");
    expect(canonical("w_10,h_10,fit_contain,f_png,bg_000000")).toBe("w_10,h_10,fit_contain,f_png,bg_000000");
    // Alpha kept and nothing padded: no pixel takes the colour.
    expect(canonical("f_png,bg_000000")).toBe("f_png");
    expect(canonical("w_10,f_webp,bg_000000")).toBe("w_10,f_webp");
    expect(canonical("w_10,fit_contain,f_png,bg_000000")).toBe("w_10,f_png");
    expect(canonical("ph_lqip,bg_000000")).toBe("ph_lqip");
    expect(canonical("f_json,bg_000000")).toBe("f_json");
  });

  it("folds white away where white is already the background, and keeps it where it replaces transparent padding", () => {
    expect(canonical("f_jpeg,bg_FFFFFF")).toBe("f_jpeg");
    expect(canonical("w_10,h_10,fit_contain,f_jpeg,bg_ffffff")).toBe("w_10,h_10,fit_contain,f_jpeg");
    expect(canonical("bg_ffffff")).toBe("");
    expect(canonical("w_10,h_10,fit_contain,f_png,bg_ffffff")).toBe("w_10,h_10,fit_contain,f_png,bg_ffffff");
    expect(canonical("w_10,h_10,fit_contain,bg_ffffff")).toBe("w_10,h_10,fit_contain,bg_ffffff");
  });

  it.each(["bg_12345", "bg_1234567", "bg_gggggg", "bg_#ff0000", "bg_", "bg_red"])("refuses %s, naming the token", (segment) => {
    expect(refusal(segment)).toEqual({ pointer: `/transform/${segment}`, detail: "bg_ must be six hex digits RRGGBB" });
  });
});

describe("br_, ct_, sat_", () => {
  it.each(["br", "ct", "sat"])("%s_ reads -100 to 100, and 0 folds away", (prefix) => {
    expect(canonical(`${prefix}_-100`)).toBe(`${prefix}_-100`);
    expect(canonical(`${prefix}_100`)).toBe(`${prefix}_100`);
    expect(canonical(`${prefix}_040`)).toBe(`${prefix}_40`);
    expect(canonical(`${prefix}_0`)).toBe("");
    expect(canonical(`w_10,${prefix}_-0`)).toBe("w_10");
    expect(canonical(`f_json,${prefix}_20`)).toBe("f_json");
  });

  it.each(["br_101", "br_-101", "ct_1.5", "sat_+5", "sat_", "ct_--1", "br_x"])("refuses %s, naming the token", (segment) => {
    expect(refusal(segment)).toEqual({ pointer: `/transform/${segment}`, detail: `${segment.split("_")[0]}_ must be a whole number from -100 to 100` });
  });

  it("orders them after the other pixel tokens", () => {
    expect(canonical("gam_2,sat_5,ct_-5,br_5,bg_ff0000,sh_1,w_10")).toBe("w_10,sh_1,bg_ff0000,br_5,ct_-5,sat_5,gam_2");
  });
});

describe("gam_", () => {
  it("reads 0.1 to 10 with at most two decimals, spelled without trailing zeros; 1 folds away", () => {
    expect(canonical("gam_2.50")).toBe("gam_2.5");
    expect(canonical("gam_0.1")).toBe("gam_0.1");
    expect(canonical("gam_10")).toBe("gam_10");
    expect(canonical("gam_1")).toBe("");
    expect(canonical("gam_1.00,w_5")).toBe("w_5");
  });

  it.each(["gam_0", "gam_11", "gam_0.05", "gam_1.234", "gam_-1", "gam_"])("refuses %s, naming the token", (segment) => {
    expect(refusal(segment)).toEqual({ pointer: `/transform/${segment}`, detail: "gam_ must be a number from 0.1 to 10 with at most 2 decimals" });
  });
});
