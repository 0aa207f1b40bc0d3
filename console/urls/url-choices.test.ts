import { describe, expect, it } from "vitest";
import { transformUrl } from "../../clients/ts/images/transform-url.ts";
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

  it("offers w_auto with the width as its fallback, and no srcset widths beside it", () => {
    expect(urlOptions({ ...DEFAULT_URL_CHOICES, hintedWidth: true, widths: "400, 800" })).toEqual({
      width: { auto: true, fallback: 800 },
      height: undefined,
      fit: undefined,
      format: "auto",
      quality: undefined,
    });
  });

  it("writes a text overlay into the URL the client builds, its text percent-encoded and its % escaped for the path", () => {
    const { widths: _widths, ...options } = urlOptions({ ...DEFAULT_URL_CHOICES, text: "© 5, 10", textFont: "serif", textSize: "20", textColour: "#FF8800", textPlace: "north" });
    const url = transformUrl({ baseUrl: "https://api.test", keyId: "key_1" }, "file_1", options);
    expect(url).toBe("https://api.test/v1/image/t/key_1/w_800,f_auto,l_text:serif_20:%25C2%25A9%25205%252C%252010,lg_north,co_ff8800/file_1");
    expect(urlOptions(DEFAULT_URL_CHOICES).overlay).toBeUndefined();
  });

  it("writes gravity, zoom and a face effect only when set", () => {
    expect(urlOptions({ ...DEFAULT_URL_CHOICES, height: "400", fit: "cover", gravity: "face", zoom: "2.5", effect: "blur_faces" })).toMatchObject({ gravity: "face", zoom: 2.5, effect: { kind: "blur_faces" } });
    expect(canonicalOf(specOf(urlOptions({ ...DEFAULT_URL_CHOICES, height: "400", fit: "cover", gravity: "faces", effect: "pixelate_faces" })))).toBe("w_800,h_400,fit_cover,g_faces,f_auto,e_pixelate_faces");
    expect(URL_GRAVITIES).toContain("face");
  });

  it("offers jpeg once", () => {
    expect(URL_FORMATS).toEqual(["jpeg", "webp", "avif", "png", "auto", "mp4", "webm"]);
  });
});
