import { describe, expect, it } from "vitest";
import { getImage } from "./nuxt.ts";
import { account, refusalDetail, transformBase } from "./test-support/adapter-account.ts";

const provider = { baseURL: account.baseUrl, keyId: account.keyId };

describe("the Nuxt Image provider", () => {
  it("turns <NuxtImg> modifiers into one canonical URL, ignoring the ones left unset", () => {
    const modifiers = { width: 300, height: 200, fit: "cover", format: "webp", quality: "80", background: undefined, blur: undefined };
    expect(getImage("file_1", { ...provider, modifiers })).toEqual({ url: `${transformBase}/w_300,h_200,fit_cover,q_80,f_webp/file_1` });
    expect(getImage("/file_1", { ...provider, modifiers: { width: "640", format: "auto", gravity: "north", blur: 2 } }).url).toBe(`${transformBase}/w_640,f_auto,bl_2/file_1`);
    expect(getImage("file_1", { ...provider, modifiers: { width: 300, height: 200, fit: "contain", background: "#00aa11" } }).url).toMatch(/\/w_300,h_200,fit_contain,.*bg_00aa11.*\/file_1$/);
  });

  it("rounds densities' products and qualities, and drops the default quality", () => {
    expect(getImage("file_1", { ...provider, modifiers: { width: 300.5, height: "200.4", quality: 75.5 } }).url).toBe(`${transformBase}/w_301,h_200/file_1`);
  });

  it("passes an auto quality through as q_auto", () => {
    expect(getImage("file_1", { ...provider, modifiers: { width: 300, quality: "auto:eco" } }).url).toBe(`${transformBase}/w_300,q_auto:eco/file_1`);
    expect(getImage("file_1", { ...provider, modifiers: { width: 300, quality: "auto" } }).url).toBe(`${transformBase}/w_300,q_auto/file_1`);
    expect(refusalDetail(() => getImage("file_1", { ...provider, modifiers: { width: 300, quality: "auto:bogus" } }))).toBe('quality must be a number, not "auto:bogus"');
  });

  it("refuses modifiers PixelPress does not have and values the edge refuses", () => {
    expect(refusalDetail(() => getImage("file_1", { ...provider, modifiers: { width: 300, sepia: 2 } }))).toContain('unknown option "sepia"');
    expect(refusalDetail(() => getImage("file_1", { ...provider, modifiers: { width: 300, background: "rgb(0,0,0)" } }))).toContain("background must be a hex colour");
    expect(refusalDetail(() => getImage("file_1", { ...provider, modifiers: { width: 300, height: 10, fit: "outside" } }))).toBe(
      "fit_ must be one of inside, cover, contain, fill",
    );
    expect(refusalDetail(() => getImage("file_1", { ...provider, modifiers: { width: "wide" } }))).toBe('width must be a number, not "wide"');
    expect(refusalDetail(() => getImage("file_1", { modifiers: { width: 300 } }))).toContain("needs baseURL");
  });
});
