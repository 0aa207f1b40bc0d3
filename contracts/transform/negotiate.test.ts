import { describe, expect, it } from "vitest";
import { formatClassFromAccept, negotiateFormat } from "./negotiate.ts";

// Accept headers as real browsers send them for <img>.
const chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const safari16 = "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5";
const firefoxOld = "image/webp,*/*";
const legacyBrowser = "image/png,image/*;q=0.8,*/*;q=0.5";

describe("negotiateFormat", () => {
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
