import { describe, expect, it } from "vitest";
import { canonicalTransform } from "./canonical.ts";
import { formatClassFromAccept, negotiateFormat, negotiateFormatClass, negotiateQuality } from "./negotiate.ts";
import { parseTransform } from "./tokens.ts";

// Accept headers as real browsers send them for <img>.
const chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const safari16 = "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5";
const firefoxOld = "image/webp,*/*";
const legacyBrowser = "image/png,image/*;q=0.8,*/*;q=0.5";

describe("negotiateFormat", () => {
  it("takes the class from the canonical transform: f_auto beside a placeholder folds away, so Accept changes nothing", () => {
    const lqip = parseTransform("w_400,ph_lqip,f_auto");
    for (const accept of [chrome, firefoxOld, legacyBrowser]) {
      expect(negotiateFormatClass(lqip, accept)).toBeUndefined();
      expect(negotiateFormat(lqip, accept, false)).toEqual({ format: undefined, formatClass: undefined });
    }
    expect(negotiateFormatClass(parseTransform("w_400,f_auto"), chrome)).toBe("avif");
    expect(negotiateFormatClass(parseTransform("w_400,f_webp"), chrome)).toBeUndefined();
  });

  it.each([
    [chrome, false, "avif", "avif"],
    [chrome, true, "avif", "avif"],
    [safari16, false, "avif", "avif"],
    [firefoxOld, false, "webp", "webp"],
    [firefoxOld, true, "webp", "webp"],
    [legacyBrowser, false, "jpeg", "legacy"],
    [legacyBrowser, true, "png", "legacy"],
    ["*/*", false, "jpeg", "legacy"],
    ["image/*", true, "png", "legacy"],
    ["", false, "jpeg", "legacy"],
    ["image/avif;q=0, image/webp", false, "webp", "webp"],
    ["IMAGE/AVIF ; Q=0.5", false, "avif", "avif"],
    ["image/avif;q=0,image/webp;q=0.0", true, "png", "legacy"],
    ["image/avif;q=oops,image/webp", false, "webp", "webp"],
  ])("f_auto with Accept %j and alpha %s gives %s (class %s)", (accept, hasAlpha, format, formatClass) => {
    expect(negotiateFormat({ format: "auto" }, accept, hasAlpha)).toEqual({ format, formatClass });
  });

  it("treats a missing Accept header as a legacy client", () => {
    expect(negotiateFormat({ format: "auto" }, null, false)).toEqual({ format: "jpeg", formatClass: "legacy" });
    expect(negotiateFormat({ format: "auto" }, undefined, true)).toEqual({ format: "png", formatClass: "legacy" });
  });

  it("ignores Accept when the format is fixed or kept", () => {
    for (const format of ["jpeg", "webp", "avif", "png"] as const) {
      expect(negotiateFormat({ format }, chrome, true)).toEqual({ format, formatClass: undefined });
    }
    expect(negotiateFormat({}, chrome, false)).toEqual({ format: undefined, formatClass: undefined });
  });

  it("gives the cache class from Accept alone, before the source is decoded", () => {
    for (const [accept, expected] of [[chrome, "avif"], [firefoxOld, "webp"], [legacyBrowser, "legacy"]] as const) {
      expect(formatClassFromAccept(accept)).toBe(expected);
      expect(negotiateFormat({ format: "auto" }, accept, false).formatClass).toBe(expected);
    }
  });
});

describe("negotiateQuality", () => {
  const served = (segment: string, saveData: string | null, ect: string | null = null) => {
    const { spec, variesOnSavings } = negotiateQuality(parseTransform(segment), { saveData, ect });
    return { canonical: canonicalTransform(spec), variesOnSavings };
  };

  it("lowers q_auto one level under Save-Data: on, to the lowered level's own derivative", () => {
    expect(served("w_400,q_auto", "on")).toEqual({ canonical: "w_400,q_auto:eco", variesOnSavings: true });
    expect(served("q_auto:good", "on")).toEqual({ canonical: "q_auto:eco", variesOnSavings: true });
    expect(served("q_auto:best", "on")).toEqual({ canonical: "q_auto", variesOnSavings: true });
    expect(served("q_auto:eco,f_auto", "On ; foo")).toEqual({ canonical: "q_auto:low,f_auto", variesOnSavings: true });
  });

  it("lowers q_auto one level on a slow ECT (slow-2g, 2g, 3g), and only one with Save-Data too", () => {
    for (const ect of ["slow-2g", "2g", "3g", " 3G ", '"2g"']) expect(served("w_400,q_auto", null, ect)).toEqual({ canonical: "w_400,q_auto:eco", variesOnSavings: true });
    expect(served("q_auto:best", "on", "slow-2g")).toEqual({ canonical: "q_auto", variesOnSavings: true });
    for (const ect of ["4g", "5g", "", "fast", "2g;q=1"]) expect(served("w_400,q_auto", null, ect)).toEqual({ canonical: "w_400,q_auto", variesOnSavings: true });
  });

  it("keeps q_auto's level without Save-Data: on, and still varies on the header", () => {
    for (const header of [null, undefined, "", "off", "only"]) {
      expect(negotiateQuality(parseTransform("w_400,q_auto:best"), { saveData: header, ect: "4g" })).toEqual({ spec: parseTransform("w_400,q_auto:best"), variesOnSavings: true });
    }
  });

  it("changes nothing and varies on nothing where Save-Data and ECT cannot change the bytes", () => {
    for (const segment of ["w_400", "w_400,q_40", "q_auto:low", "w_40,q_auto,ph_lqip"]) {
      expect(negotiateQuality(parseTransform(segment), { saveData: "on", ect: "2g" })).toEqual({ spec: parseTransform(segment), variesOnSavings: false });
    }
  });
});
