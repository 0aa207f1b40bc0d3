import { describe, expect, it } from "vitest";
import { canonicalOf, specOf } from "../../clients/ts/images/transform-tokens.ts";
import { DEFAULT_URL_CHOICES, urlOptions, URL_FORMATS, URL_GRAVITIES } from "./url-choices.ts";

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

  it("writes gravity, zoom and a face effect only when set", () => {
    expect(urlOptions({ ...DEFAULT_URL_CHOICES, height: "400", fit: "cover", gravity: "face", zoom: "2.5", effect: "blur_faces" })).toMatchObject({ gravity: "face", zoom: 2.5, effect: { kind: "blur_faces" } });
    expect(canonicalOf(specOf(urlOptions({ ...DEFAULT_URL_CHOICES, height: "400", fit: "cover", gravity: "faces", effect: "pixelate_faces" })))).toBe("w_800,h_400,fit_cover,g_faces,f_auto,e_pixelate_faces");
    expect(URL_GRAVITIES).toContain("face");
  });

  it("offers jpeg once", () => {
    expect(URL_FORMATS).toEqual(["jpeg", "webp", "avif", "png", "auto"]);
  });
});
