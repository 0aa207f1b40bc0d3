import { getSrcSet, transformBaseImageProps } from "@unpic/core/base";
import { describe, expect, it } from "vitest";
import { extract, generate, transform, type PixelPressOperations, type PixelPressOptions } from "./unpic.ts";
import { account, refusalDetail, transformBase } from "./test-support/adapter-account.ts";

const options: PixelPressOptions = account;

describe("the unpic provider, through @unpic/core", () => {
  it("gives transformBaseImageProps the src and srcset of a constrained image", () => {
    const props = transformBaseImageProps<PixelPressOperations, PixelPressOptions, { src?: string; srcset?: string; sizes?: string; width?: number }>({
      src: "file_1",
      transformer: transform,
      width: 400,
      height: 300,
      layout: "constrained",
      options,
    });
    expect(props.src).toBe(`${transformBase}/w_400,h_300,f_auto/file_1`);
    // unpic's breakpoints for 400 px constrained: 1x, 2x and its resolutions below 2x; heights keep 4:3.
    expect(props.srcset).toBe(
      [
        `${transformBase}/w_400,h_300,f_auto/file_1 400w`,
        `${transformBase}/w_640,h_480,f_auto/file_1 640w`,
        `${transformBase}/w_750,h_563,f_auto/file_1 750w`,
        `${transformBase}/w_800,h_600,f_auto/file_1 800w`,
      ].join(",\n"),
    );
    expect(props.sizes).toBe("(min-width: 400px) 400px, 100vw");
  });

  it("rounds unpic's computed sizes and string qualities", () => {
    const srcset = getSrcSet<PixelPressOperations, PixelPressOptions>({
      src: "file_1",
      transformer: transform,
      breakpoints: [333],
      width: 333,
      height: 100,
      aspectRatio: 3.33,
      options,
      operations: { quality: "49.6", fit: "cover" },
    });
    expect(srcset).toBe(`${transformBase}/w_333,h_100,fit_cover,q_50,f_auto/file_1 333w`);
    expect(generate("file_1", { width: "640.4", quality: 76, format: "jpg" }, options)).toBe(`${transformBase}/w_640,f_jpeg/file_1`);
  });

  it("takes a PixelPress URL apart and transforms it again", () => {
    const url = `${transformBase}/w_800,h_600,fit_cover,g_north,q_60,f_webp/file_1`;
    expect(extract(url)).toEqual({
      src: "file_1",
      operations: { width: 800, height: 600, fit: "cover", gravity: "north", quality: 60, format: "webp" },
      options: account,
    });
    expect(transform(url, { width: 400, height: 300 })).toBe(`${transformBase}/w_400,h_300,fit_cover,g_north,q_60,f_webp/file_1`);
    expect(transform(`https://cdn.example.com/api${"/v1/image/t/key_pub/dpr_2,w_100/file_1"}`, { format: "avif" })).toBe(
      "https://cdn.example.com/api/v1/image/t/key_pub/w_200,f_avif/file_1",
    );
    expect(extract(`${transformBase}/w_100,anim_false/file_1`)?.operations).toMatchObject({ width: 100, animated: false });
    expect(transform(`${transformBase}/w_100,anim_false/file_1`, { width: 50 })).toBe(`${transformBase}/w_50,f_auto,anim_false/file_1`);
    expect(extract(`${transformBase}/w_100,q_auto:eco/file_1`)?.operations).toMatchObject({ width: 100, quality: "auto:eco" });
    expect(transform(`${transformBase}/w_100,q_auto/file_1`, { width: 50 })).toBe(`${transformBase}/w_50,q_auto,f_auto/file_1`);
    expect(extract("https://example.com/cat.jpg")).toBeNull();
  });

  it("refuses what the edge refuses, and a provider without its options", () => {
    expect(refusalDetail(() => transform("file_1", { width: 10000 }, options))).toBe("w_ must be a whole number from 1 to 8192");
    expect(refusalDetail(() => transform("file_1", { width: 100, format: "gif" as never }, options))).toBe("f_ must be one of jpg, jpeg, webp, avif, png, auto, mp4, webm, json");
    expect(refusalDetail(() => transform("file_1", { width: 100, sepia: "x" } as PixelPressOperations, options))).toContain('unknown option "sepia"');
    expect(refusalDetail(() => transform("file_1", { width: 100, crop: "x" } as PixelPressOperations, options))).toContain("crop_ must be x, y, width and height");
    expect(refusalDetail(() => generate("file_1", { width: 100 }))).toContain("needs options.baseUrl");
  });
});
