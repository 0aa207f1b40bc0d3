import { describe, expect, it } from "vitest";
import { astroImageService, type AstroImageTransform } from "./astro.ts";
import { account, refusalDetail, transformBase } from "./test-support/adapter-account.ts";

const imageConfig = { service: { entrypoint: "./src/pixelpress-image-service.ts", config: account } };

// What Astro does with a service's srcset: each transform goes back through getURL.
function srcsetOf(options: AstroImageTransform): string {
  return astroImageService
    .getSrcSet(options, imageConfig)
    .map((value) => `${astroImageService.getURL(value.transform, imageConfig)} ${value.descriptor}`)
    .join(", ");
}

describe("the Astro image service", () => {
  it("maps Astro's options, presets and CSS keywords to one canonical URL", () => {
    expect(astroImageService.getURL({ src: "file_1", width: 600, height: 400, quality: "mid", format: "avif", alt: "a fox" }, imageConfig)).toBe(
      `${transformBase}/w_600,h_400,q_50,f_avif/file_1`,
    );
    expect(astroImageService.getURL({ src: "/file_1", width: 300, height: 300, fit: "cover", position: "top left", quality: 80.4 }, imageConfig)).toBe(
      `${transformBase}/w_300,h_300,fit_cover,g_northwest,q_80/file_1`,
    );
    expect(astroImageService.getURL({ src: "file_1", width: 300.5, fit: "contain" }, imageConfig)).toBe(`${transformBase}/w_301/file_1`);
    expect(astroImageService.getURL({ src: "file_1", width: 300, height: 200, fit: "contain", background: "#F80" }, imageConfig)).toBe(`${transformBase}/w_300,h_200,bg_ff8800/file_1`);
  });

  it("lists srcset candidates for widths and densities, rounded as Astro rounds", () => {
    expect(srcsetOf({ src: "file_1", width: 400, height: 300, widths: [400, 750], format: "webp" })).toBe(
      `${transformBase}/w_400,h_300,f_webp/file_1 400w, ${transformBase}/w_750,h_563,f_webp/file_1 750w`,
    );
    expect(srcsetOf({ src: "file_1", width: 333, densities: [1, "1.5x", 2] })).toBe(`${transformBase}/w_333/file_1 1x, ${transformBase}/w_500/file_1 1.5x, ${transformBase}/w_666/file_1 2x`);
    expect(srcsetOf({ src: "file_1", width: 333 })).toBe("");
  });

  it("takes every transform token as a prop and writes none of them out as an <img> attribute", () => {
    // dpr_2 is folded into the width, as the edge folds it.
    const options: AstroImageTransform = { src: "file_1", width: 300, dpr: 2, animated: false, placeholder: "lqip", blur: 2, rotate: 90, alt: "a fox" };
    expect(astroImageService.getURL(options, imageConfig)).toBe(`${transformBase}/w_600,r_90,bl_2,anim_false,ph_lqip/file_1`);
    expect(astroImageService.getHTMLAttributes(options, imageConfig)).toEqual({ alt: "a fox", width: 300, height: undefined, loading: "lazy", decoding: "async" });
  });

  it("hands Astro the HTML attributes without the transform options", () => {
    expect(astroImageService.getHTMLAttributes({ src: "file_1", width: 600, height: 400, quality: 50, format: "avif", fit: "cover", layout: "constrained", priority: false, alt: "a fox", class: "hero" }, imageConfig)).toEqual({
      alt: "a fox",
      class: "hero",
      width: 600,
      height: 400,
      loading: "lazy",
      decoding: "async",
    });
  });

  it("refuses imported images, options it has no transform for and what the edge refuses", () => {
    expect(refusalDetail(() => astroImageService.getURL({ src: { src: "/_astro/fox.png", width: 10, height: 10, format: "png" }, width: 5 }, imageConfig))).toContain(
      "not an imported local image",
    );
    expect(refusalDetail(() => astroImageService.getURL({ src: "file_1", width: 300, height: 200, fit: "none" }, imageConfig))).toContain('fit "none" has no PixelPress transform');
    expect(refusalDetail(() => astroImageService.getURL({ src: "file_1", width: 300, quality: "best" as never }, imageConfig))).toContain("low, mid, high, max");
    expect(refusalDetail(() => astroImageService.getURL({ src: "file_1", width: 300, format: "svg" }, imageConfig))).toBe("f_ must be one of jpg, jpeg, webp, avif, png, auto, mp4, webm, json");
    expect(refusalDetail(() => astroImageService.getURL({ src: "file_1", width: 300, background: "black" }, imageConfig))).toBe('background must be a hex colour such as #ff8800 or #f80, not "black"');
    expect(refusalDetail(() => astroImageService.getURL({ src: "file_1", width: 300 }, { service: { entrypoint: "x", config: {} as never } }))).toContain("image.service.config.baseUrl");
  });
});
