import { describe, expect, it } from "vitest";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { canonicalTransform } from "../../../contracts/transform/canonical.ts";
import { parseTransform } from "../../../contracts/transform/tokens.ts";
import { PixelPressError } from "../api-error.ts";
import { createImageUrls } from "./image-urls.ts";

const urls = createImageUrls({ baseUrl: "https://img.example.com/", keyId: "key_pub" });
const base = "https://img.example.com/v1/image/t/key_pub";

function refusal(run: () => unknown): PixelPressError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PixelPressError);
    return error as PixelPressError;
  }
  throw new Error("expected a refusal");
}

function edgeRefusal(segment: string): ProblemError {
  try {
    parseTransform(segment);
  } catch (error) {
    return error as ProblemError;
  }
  throw new Error(`the edge accepts ${segment}`);
}

describe("transformUrl", () => {
  it("writes the tokens in the edge's canonical order, defaults and aliases folded", () => {
    expect(urls.transformUrl("file_1", { format: "auto", width: 400 })).toBe(`${base}/w_400,f_auto/file_1`);
    expect(urls.transformUrl("file_1", { quality: 76, format: "jpg", fit: "cover", height: 300, width: 400, gravity: "auto" })).toBe(
      `${base}/w_400,h_300,fit_cover,g_auto,f_jpeg/file_1`,
    );
    expect(urls.transformUrl("file_1", "f_webp,dpr_2,w_300,r_auto")).toBe(`${base}/w_600,f_webp/file_1`);
    expect(urls.transformUrl("file_1", { width: 100, rotate: 90, blur: 1.5, sharpen: 0.5, quality: 40 })).toBe(`${base}/w_100,q_40,r_90,bl_1.5,sh_0.5/file_1`);
    expect(urls.transformUrl("file_1", { animated: false, width: 100 })).toBe(`${base}/w_100,anim_false/file_1`);
    expect(urls.transformUrl("file_1", { quality: "auto", width: 100 })).toBe(`${base}/w_100,q_auto/file_1`);
    expect(urls.transformUrl("file_1", { quality: "auto:good", width: 100 })).toBe(`${base}/w_100,q_auto/file_1`);
    expect(urls.transformUrl("file_1", { quality: "auto:eco", format: "auto", width: 100 })).toBe(`${base}/w_100,q_auto:eco,f_auto/file_1`);
  });

  it("always writes a segment that is already canonical", () => {
    const cases = [{ height: 200, width: 300, fit: "contain" as const, gravity: "north" as const }, { dpr: 4, width: 5000 }, { width: 8192, height: 4000 }];
    for (const options of cases) {
      const segment = urls.transformUrl("f", options).split("/").at(-2)!;
      expect(canonicalTransform(parseTransform(segment))).toBe(segment);
    }
  });

  it("refuses what the edge refuses, with the edge's problem", () => {
    for (const [options, segment] of [
      [{ width: 9000 }, "w_9000"],
      [{ width: 400.5 }, "w_400.5"],
      [{ quality: 0, format: "gif" }, "q_0,f_gif"],
      [{ width: 8000, height: 8000 }, "w_8000,h_8000"],
      [{ blur: 1.234 }, "bl_1.234"],
      [{ quality: "auto:bogus" }, "q_auto:bogus"],
    ] as const) {
      const edge = edgeRefusal(segment);
      const client = refusal(() => urls.transformUrl("file_1", options as never));
      expect(client.problem).toEqual(edge.toBody());
      expect(client.status).toBe(400);
    }
    expect(refusal(() => urls.transformUrl("file_1", "w_400,x_1")).problem).toEqual(edgeRefusal("w_400,x_1").toBody());
  });

  it("names unknown options, smuggled tokens, s_ and transforms that change nothing", () => {
    const unknownOption = refusal(() => urls.transformUrl("f", { widht: 400 } as never)).problem;
    expect(unknownOption.detail).toContain('unknown option "widht"');
    expect(unknownOption).toMatchObject({ errors: [{ pointer: "/transform/widht" }] });
    expect(refusal(() => urls.transformUrl("f", { format: "webp,w_9" as never })).problem.detail).toBe("f_ must not contain a comma");
    expect(refusal(() => urls.transformUrl("f", "w_4,s_AAAAAAAAAAAAAAAAAAAAAA")).problem.detail).toContain("signed on the server");
    expect(refusal(() => urls.transformUrl("f", { rotate: "auto", quality: 76 })).problem.detail).toContain("changes nothing");
  });
});

describe("srcset", () => {
  it("gives one w candidate per width, keeping the aspect ratio of width x height", () => {
    expect(urls.srcset("file_1", { widths: [800, 400], width: 400, height: 300, fit: "cover", format: "auto" })).toBe(
      `${base}/w_400,h_300,fit_cover,f_auto/file_1 400w, ${base}/w_800,h_600,fit_cover,f_auto/file_1 800w`,
    );
  });

  it("gives x candidates with dpr folded into the size", () => {
    expect(urls.srcset("file_1", { densities: [2, 1, 1.5], width: 333, quality: 60 })).toBe(
      `${base}/w_333,q_60/file_1 1x, ${base}/w_500,q_60/file_1 1.5x, ${base}/w_666,q_60/file_1 2x`,
    );
    expect(urls.srcset("file_1", { widths: [400, 200], quality: "auto:best" })).toBe(`${base}/w_200,q_auto:best/file_1 200w, ${base}/w_400,q_auto:best/file_1 400w`);
  });

  it("refuses mixed descriptors, an explicit dpr, height without width and over-cap widths", () => {
    expect(refusal(() => urls.srcset("f", { widths: [1], densities: [1] })).problem.detail).toContain("not both");
    expect(refusal(() => urls.srcset("f", { widths: [100], dpr: 2 })).problem.detail).toContain("leave dpr out");
    expect(refusal(() => urls.srcset("f", { widths: [100], height: 50 })).problem.detail).toContain("height together with width");
    expect(refusal(() => urls.srcset("f", { densities: [1, 2] })).problem.detail).toContain("give width or height");
    expect(refusal(() => urls.srcset("f", { widths: [] })).problem.detail).toBe("widths is empty; give at least one");
    expect(refusal(() => urls.srcset("f", { widths: [400, 9000] })).problem).toEqual(edgeRefusal("w_9000").toBody());
    expect(refusal(() => urls.srcset("f", { densities: [1, 5], width: 10 })).problem).toEqual(edgeRefusal("w_10,dpr_5").toBody());
  });
});

describe("imgAttributes", () => {
  const intrinsic = { width: 1200, height: 800 };

  it("declares the size the derivative will have, at 1x and 2x by default", () => {
    expect(urls.imgAttributes("file_1", { width: 300, format: "auto", intrinsic })).toEqual({
      src: `${base}/w_300,f_auto/file_1`,
      srcset: `${base}/w_300,f_auto/file_1 1x, ${base}/w_600,f_auto/file_1 2x`,
      width: 300,
      height: 200,
    });
  });

  it("stops the candidates at the file's own width and describes each by its real width", () => {
    expect(urls.imgAttributes("file_1", { widths: [400, 800, 1600, 3200], width: 800, intrinsic })).toEqual({
      src: `${base}/w_800/file_1`,
      srcset: `${base}/w_400/file_1 400w, ${base}/w_800/file_1 800w, ${base}/w_1600/file_1 1200w`,
      sizes: "(min-width: 800px) 800px, 100vw",
      width: 800,
      height: 533,
    });
    expect(urls.imgAttributes("file_1", { width: 900, densities: [1, 2, 3], intrinsic }).srcset).toBe(`${base}/w_900/file_1 1x, ${base}/w_1800/file_1 2x`);
  });

  it("serves a fluid image from its largest candidate, with the caller's sizes", () => {
    expect(urls.imgAttributes("file_1", { widths: [640, 1280], sizes: "50vw", intrinsic: { width: 2000, height: 1000 } })).toEqual({
      src: `${base}/w_1280/file_1`,
      srcset: `${base}/w_640/file_1 640w, ${base}/w_1280/file_1 1280w`,
      sizes: "50vw",
      width: 1280,
      height: 640,
    });
  });
});

describe("imgAttributes with w_auto", () => {
  const intrinsic = { width: 1200, height: 800 };

  it("writes one URL whose width the browser's hints choose, with sizes for Sec-CH-Width and the fallback's size", () => {
    expect(urls.imgAttributes("file_1", { width: { auto: true, fallback: 600 }, format: "auto", intrinsic })).toEqual({
      src: `${base}/w_auto:600,f_auto/file_1`,
      srcset: `${base}/w_auto:600,f_auto/file_1`,
      sizes: "100vw",
      width: 600,
      height: 400,
    });
    expect(urls.imgAttributes("file_1", { width: { auto: true, fallback: 600, min: 320, max: 1280 }, sizes: "50vw" })).toEqual({
      src: `${base}/w_auto:600:320-1280/file_1`,
      srcset: `${base}/w_auto:600:320-1280/file_1`,
      sizes: "50vw",
      width: 600,
    });
    expect(urls.picture("file_1", { width: { auto: true }, formats: ["avif"], intrinsic }).sources).toEqual([{ type: "image/avif", srcset: `${base}/w_auto,f_avif/file_1`, sizes: "100vw" }]);
  });

  it("refuses widths, densities or a bound the edge would refuse", () => {
    expect(refusal(() => urls.imgAttributes("file_1", { width: { auto: true }, widths: [400] })).problem.errors?.[0]?.pointer).toBe("/transform/width");
    expect(refusal(() => urls.srcset("file_1", { width: { auto: true }, densities: [1, 2] })).problem.errors?.[0]?.pointer).toBe("/transform/width");
    expect(refusal(() => urls.imgAttributes("file_1", { width: { auto: true, min: 900, max: 300 } })).problem).toEqual(edgeRefusal("w_auto:900-300").toBody());
  });
});

describe("picture", () => {
  it("gives one source per format and keeps the img's own format", () => {
    expect(urls.picture("file_1", { width: 200, height: 200, fit: "cover", densities: [1, 2], format: "jpeg" })).toEqual({
      sources: [
        { type: "image/avif", srcset: `${base}/w_200,h_200,fit_cover,f_avif/file_1 1x, ${base}/w_400,h_400,fit_cover,f_avif/file_1 2x` },
        { type: "image/webp", srcset: `${base}/w_200,h_200,fit_cover,f_webp/file_1 1x, ${base}/w_400,h_400,fit_cover,f_webp/file_1 2x` },
      ],
      img: {
        src: `${base}/w_200,h_200,fit_cover,f_jpeg/file_1`,
        srcset: `${base}/w_200,h_200,fit_cover,f_jpeg/file_1 1x, ${base}/w_400,h_400,fit_cover,f_jpeg/file_1 2x`,
        width: 200,
        height: 200,
      },
    });
    expect(refusal(() => urls.picture("f", { width: 10, formats: ["auto" as never] })).problem.detail).toContain("one format");
  });
});
