import { describe, expect, it } from "vitest";
import { DEFAULT_URL_CHOICES, urlOptions, URL_FORMATS } from "./url-choices.ts";

describe("urlOptions", () => {
  it("leaves out what the form leaves empty, and the default fit", () => {
    expect(urlOptions(DEFAULT_URL_CHOICES)).toEqual({ width: 800, height: undefined, fit: undefined, format: "auto", quality: undefined });
  });

  it("reads an auto level, a number and a widths list", () => {
    expect(urlOptions({ ...DEFAULT_URL_CHOICES, quality: "auto:eco", widths: "400, 800,1200", fit: "cover", height: "450" })).toEqual({
      width: 800,
      height: 450,
      fit: "cover",
      format: "auto",
      quality: "auto:eco",
      widths: [400, 800, 1200],
    });
    expect(urlOptions({ ...DEFAULT_URL_CHOICES, quality: "60" }).quality).toBe(60);
  });

  it("offers jpeg once", () => {
    expect(URL_FORMATS).toEqual(["jpeg", "webp", "avif", "png", "auto", "mp4", "webm"]);
  });
});
