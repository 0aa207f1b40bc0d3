import { describe, expect, it } from "vitest";
import { canonicalTransform, urlTransform } from "./canonical.ts";
import { negotiateTransform } from "./negotiate.ts";
import { readTransform } from "./read-transform.ts";
import { parseTransform } from "./tokens.ts";

const served = (segment: string, hints: Record<string, string> = {}) => {
  const { spec, vary } = negotiateTransform(parseTransform(segment), new Headers(hints));
  return { canonical: canonicalTransform(spec), vary };
};

const refusal = (segment: string) => readTransform(segment).errors?.map(({ detail }) => detail);

describe("w_auto and dpr_auto's grammar", () => {
  it("reads a fallback and a min-max bound, and writes them back as the URL spells them", () => {
    for (const segment of ["w_auto", "w_auto:800", "w_auto:320-1280", "w_auto:800:320-1280", "w_auto:800,dpr_auto", "w_400,dpr_auto"]) {
      expect(urlTransform(parseTransform(segment))).toBe(segment);
    }
    expect(parseTransform("w_auto:800:320-1280").width).toEqual({ auto: true, fallback: 800, min: 320, max: 1280 });
  });

  it("refuses a bound out of range or upside down, and any other spelling, naming the grammar", () => {
    for (const segment of ["w_auto:0", "w_auto:800:0-1280", "w_auto:800:320-9000", "w_auto:800:1280-320", "w_auto:", "w_auto:800:320", "w_auto:a", "w_auto:1:2-3:4", "w_autox", "w_800px"]) {
      expect(refusal(segment), segment).toEqual([expect.stringContaining("auto[:<fallback>][:<min>-<max>]")]);
    }
    expect(refusal("w_9000")).toEqual(["w_ must be a whole number from 1 to 8192"]);
    expect(refusal("dpr_5")).toEqual(["dpr_ must be a number from 1 to 4 with at most 2 decimals, or auto"]);
  });

  it("signs the URL as written: the bound is part of what is signed, and w_auto is not the fallback's own URL", () => {
    expect(urlTransform(parseTransform("f_webp,w_auto:800:320-1280"))).toBe("w_auto:800:320-1280,f_webp");
    expect(urlTransform(parseTransform("w_auto:800:320-1280"))).not.toBe(urlTransform(parseTransform("w_auto:800:320-1600")));
    expect(urlTransform(parseTransform("w_auto:800"))).not.toBe(urlTransform(parseTransform("w_800")));
  });
});

describe("negotiateTransform's client hints", () => {
  const widthHints = "Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR";

  it("snaps a hinted width up to its rung, never down: two widths in one rung are one derivative", () => {
    expect(served("w_auto:800", { "Sec-CH-Width": "500" })).toEqual({ canonical: "w_640", vary: widthHints.split(", ") });
    expect(served("w_auto:800", { "Sec-CH-Width": "640" }).canonical).toBe("w_640");
    expect(served("w_auto:800", { "Sec-CH-Width": "641" }).canonical).toBe("w_768");
    expect(served("w_auto", { "Sec-CH-Width": "1" }).canonical).toBe("w_160");
    expect(served("w_auto", { "Sec-CH-Width": "99999" }).canonical).toBe("w_3840");
  });

  it("reads the viewport width in CSS pixels times the DPR when Sec-CH-Width is absent", () => {
    expect(served("w_auto:800", { "Sec-CH-Viewport-Width": "320", "Sec-CH-DPR": "2" }).canonical).toBe("w_640");
    expect(served("w_auto:800", { "Sec-CH-Viewport-Width": "400" }).canonical).toBe("w_480");
    expect(served("w_auto:800", { "Sec-CH-Width": "300", "Sec-CH-Viewport-Width": "1900", "Sec-CH-DPR": "3" }).canonical).toBe("w_320");
  });

  it("keeps the rung within the signed bound", () => {
    expect(served("w_auto:800:320-1000", { "Sec-CH-Width": "2000" }).canonical).toBe("w_1000");
    expect(served("w_auto:800:500-1000", { "Sec-CH-Width": "100" }).canonical).toBe("w_500");
    expect(served("w_auto:800:500-1000", { "Sec-CH-Width": "700" }).canonical).toBe("w_768");
  });

  it("serves the fallback without a usable hint, and the picture's own width without a fallback", () => {
    for (const bad of ["", "abc", "-5", "0", "1e3", "12.5", "123456", " ", "NaN"]) {
      expect(served("w_auto:800", { "Sec-CH-Width": bad, "Sec-CH-Viewport-Width": bad }).canonical, bad).toBe("w_800");
    }
    expect(served("w_auto:800,f_webp").canonical).toBe("w_800,f_webp");
    expect(served("w_auto,f_webp")).toEqual({ canonical: "f_webp", vary: widthHints.split(", ") });
  });

  it("scales dpr_auto's w and h by the hinted ratio's rung, and only h beside w_auto", () => {
    expect(served("w_400,h_300,fit_cover,dpr_auto", { "Sec-CH-DPR": "2.625" })).toEqual({ canonical: "w_1200,h_900,fit_cover", vary: ["Sec-CH-DPR"] });
    expect(served("w_400,dpr_auto", { "Sec-CH-DPR": "1.25" }).canonical).toBe("w_600");
    for (const bad of ["0.5", "x", "", "-2"]) expect(served("w_400,dpr_auto", { "Sec-CH-DPR": bad }).canonical, bad).toBe("w_400");
    expect(served("w_400,dpr_auto", { "Sec-CH-DPR": "9" }).canonical).toBe("w_1600");
    expect(served("w_auto:800,h_300,fit_cover,dpr_auto", { "Sec-CH-Width": "900", "Sec-CH-DPR": "2" }).canonical).toBe("w_1024,h_600,fit_cover");
  });

  it("names in Vary exactly the headers the URL's tokens read, in one order", () => {
    expect(served("w_auto,q_auto,f_auto").vary).toEqual(["Accept", "Save-Data", "ECT", "Sec-CH-Width", "Sec-CH-Viewport-Width", "Sec-CH-DPR"]);
    expect(served("w_400,q_auto,dpr_auto").vary).toEqual(["Save-Data", "ECT", "Sec-CH-DPR"]);
    expect(served("w_400,dpr_2", { "Sec-CH-DPR": "3", "Sec-CH-Width": "100" })).toEqual({ canonical: "w_800", vary: [] });
  });
});
