import { beforeAll, describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { PDF_PROFILE_PARAMETERS, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { defaultProfileTargets } from "./profiles.ts";
import { searchSizeStep, targetBytesOf } from "./size-target.ts";
import type { SizeStep } from "./size-target.ts";
import { buildPdf, jpegImage } from "./test-support/generate-pdf.ts";
import { jpegFrameType, pageImages } from "./test-support/inspect-output.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);
const MB = 1024 * 1024;
const base64Length = (bytes: number) => Buffer.alloc(bytes).toString("base64").length;

describe("targetBytesOf", () => {
  it("turns max_size_mb into bytes and max_base64_bytes into the largest byte count whose base64 fits", () => {
    expect(targetBytesOf({ max_size_mb: 1, max_base64_bytes: null })).toBe(MB);
    expect(targetBytesOf({ max_size_mb: null, max_base64_bytes: null })).toBeNull();
    for (const limit of [4, 5, 7, 1000, 1001, 1002, 1003, 98_765]) {
      const bytes = targetBytesOf({ max_size_mb: null, max_base64_bytes: limit }) ?? 0;
      expect(base64Length(bytes)).toBeLessThanOrEqual(limit);
      expect(base64Length(bytes + 1)).toBeGreaterThan(limit);
    }
    expect(targetBytesOf({ max_size_mb: 1, max_base64_bytes: 4000 })).toBe(3000);
  });
});

describe("searchSizeStep", () => {
  const ebook = defaultProfileTargets("ebook");
  // A size that falls with quality and with the square of the resolution, as image bytes do.
  const sizer = () => {
    const probes: SizeStep[] = [];
    const estimate = (step: SizeStep) => {
      probes.push(step);
      return Promise.resolve(1000 + step.quality * 1000 * (step.dpi / ebook.targetDpi) ** 2);
    };
    return { probes, estimate };
  };

  it("takes the highest quality that fits, by bisection", async () => {
    const { probes, estimate } = sizer();
    const result = await searchSizeStep({ ...ebook, quality: 76 }, 30, 1000 + 55_500, estimate);
    expect(result).toMatchObject({ step: { quality: 55, dpi: 150 }, fits: true });
    expect(probes.every((step) => step.dpi === 150)).toBe(true);
    expect(probes.length).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(76 - 30)));
  });

  it("never probes below min_quality, even from a ceiling that is lower", async () => {
    const screen = { ...defaultProfileTargets("screen"), quality: 50 };
    const { probes, estimate } = sizer();
    const result = await searchSizeStep(screen, 60, 1000 + 55_000 * (40 / 150) ** 2, estimate);
    expect(Math.min(...probes.map((step) => step.quality))).toBe(60);
    expect(result.step).toMatchObject({ quality: 60 });
    expect(result.step.dpi).toBeLessThan(screen.targetDpi);
  });

  it("lowers the resolution only when the lowest quality does not fit, and stops at the floor", async () => {
    const { estimate } = sizer();
    const target = 1000 + 30 * 1000 * (100 / 150) ** 2;
    const result = await searchSizeStep({ ...ebook, quality: 76 }, 30, target, estimate);
    expect(result).toMatchObject({ step: { quality: 30, dpi: 100 }, fits: true });
    const impossible = await searchSizeStep(ebook, 30, 500, estimate);
    expect(impossible).toMatchObject({ step: { quality: 30, dpi: ebook.floorDpi }, fits: false });
  });
});

describe("compressPdf with a size target", () => {
  let input: Uint8Array;
  let unconstrained: number;
  // The size search's mechanics at a fixed starting quality; the floor's own case is the last test.
  const fixed = (input: PdfCompressOptionsInput) => options({ image_quality: 76, ...input });

  beforeAll(async () => {
    // Two photos drawn at 300 dpi: ebook brings them to 150 dpi, 600 x 400 and 450 x 300 px.
    const photos = [await jpegImage("Large", 1200, 800, 92), await jpegImage("Small", 900, 600, 92)];
    input = buildPdf(photos, [[{ image: "Large", x: 72, y: 400, width: 288, height: 192 }], [{ image: "Small", x: 72, y: 400, width: 216, height: 144 }]]);
    unconstrained = (await compressPdf(input, fixed({ profile: "ebook" }))).bytes.byteLength;
  });

  it("meets a reachable target with the highest quality that fits, keeping the resolution", async () => {
    // Between the sizes at min_quality (60) and at image_quality (76).
    const atMinQuality = (await compressPdf(input, options({ profile: "ebook", image_quality: 60 }))).bytes.byteLength;
    const targetBytes = Math.floor((unconstrained + atMinQuality) / 2);
    const result = await compressPdf(input, fixed({ profile: "ebook", max_size_mb: targetBytes / MB }));
    expect(result.stats).toMatchObject({ target_met: true, target_bytes: targetBytes });
    expect(result.bytes.byteLength).toBeLessThanOrEqual(targetBytes);
    const search = result.stats.target_search;
    expect(search?.resolution_scale).toBe(1);
    expect(search?.quality).toBeGreaterThan(60);
    expect(search?.quality).toBeLessThan(76);
    // Bisection over qualities: a handful of encodes per image, and two saves.
    expect(search?.encodes).toBeLessThanOrEqual(2 * 8);
    expect(search?.saves).toBe(2);
    const images = pageImages(result.bytes).flat();
    expect(images.map((image) => [image.width, image.filter]).sort()).toEqual([
      [450, "DCTDecode"],
      [600, "DCTDecode"],
    ]);
    for (const image of images) expect(jpegFrameType(image.raw)).toBe("baseline");
    for (const page of comparePdfRenders(input, result.bytes, { dpi: 72, maxPages: 2 })) expect(page.ssim, `page ${page.page}`).toBeGreaterThan(0.85);
    // One quality step higher no longer fits.
    const higher = await compressPdf(input, options({ profile: "ebook", image_quality: (search?.quality ?? 76) + 1 }));
    expect(higher.bytes.byteLength).toBeGreaterThan(targetBytes);
  });

  it("lowers the resolution once min_quality is not enough", async () => {
    const atMinQuality = (await compressPdf(input, options({ profile: "ebook", image_quality: 60 }))).bytes.byteLength;
    const targetBytes = Math.floor(atMinQuality * 0.8);
    const result = await compressPdf(input, fixed({ profile: "ebook", max_size_mb: targetBytes / MB }));
    expect(result.stats.target_met).toBe(true);
    expect(result.bytes.byteLength).toBeLessThanOrEqual(targetBytes);
    expect(result.stats.target_search?.quality).toBe(60);
    expect(result.stats.target_search?.resolution_scale).toBeLessThan(1);
    expect(pageImages(result.bytes)[0]?.[0]?.width).toBeLessThan(600);
  });

  it("returns the smallest result, marked unmet, when the target is out of reach", async () => {
    const result = await compressPdf(input, options({ profile: "ebook", max_base64_bytes: 4000 }));
    expect(result.stats).toMatchObject({ target_met: false, target_bytes: 3000 });
    expect(base64Length(result.bytes.byteLength)).toBeGreaterThan(4000);
    expect(result.stats.target_search).toMatchObject({ quality: 60, target_dpi: 72 });
    // 72 dpi of a 1200 px image drawn at 4 inches: 288 px.
    expect(pageImages(result.bytes)[0]?.[0]).toMatchObject({ width: 288, height: 192, filter: "DCTDecode" });
    expect(result.warnings.map((warning) => warning.code)).toContain("target_not_met");
    expect(comparePdfRenders(input, result.bytes, { dpi: 36, maxPages: 2 }).every((page) => page.ssim > 0.5)).toBe(true);
  });

  it("raises an image_quality below min_quality to it, unmet when it must", async () => {
    const screen = await compressPdf(input, options({ profile: "screen", image_quality: 50 }));
    const targetBytes = Math.floor(screen.bytes.byteLength * 0.9);
    const result = await compressPdf(input, options({ profile: "screen", image_quality: 50, max_size_mb: targetBytes / MB, min_quality: 60 }));
    expect(result.stats.target_search?.quality).toBe(60);
    const qualities = result.stats.images.map((image) => image.after?.quality);
    expect(qualities.length).toBeGreaterThan(0);
    for (const quality of qualities) expect(quality).toBe(60);
    // The floor holds even when the target is out of reach: the smallest result at it comes back, unmet.
    const unreachable = await compressPdf(input, options({ profile: "screen", image_quality: 50, max_base64_bytes: 4000, min_quality: 60 }));
    expect(unreachable.stats).toMatchObject({ target_met: false, target_search: { quality: 60, target_dpi: PDF_PROFILE_PARAMETERS.screen.floorDpi } });
    for (const image of unreachable.stats.images) expect(image.after?.quality).toBe(60);
  });

  it("searches custom without max_dpi from the resolution the images are placed at", async () => {
    const native = await compressPdf(input, options({ profile: "custom", image_quality: 60 }));
    const targetBytes = Math.floor(native.bytes.byteLength * 0.7);
    const result = await compressPdf(input, options({ profile: "custom", max_size_mb: targetBytes / MB }));
    expect(result.stats.target_met).toBe(true);
    expect(result.bytes.byteLength).toBeLessThanOrEqual(targetBytes);
    const search = result.stats.target_search;
    expect(search?.quality).toBe(60);
    expect(search?.target_dpi).toBeLessThan(300);
    expect(search?.target_dpi).toBeGreaterThanOrEqual(72);
    expect(search?.resolution_scale).toBeCloseTo((search?.target_dpi ?? 0) / 300, 2);
    expect(pageImages(result.bytes)[0]?.[0]?.width).toBeLessThan(1200);
  });

  it("meets a target on a full-page photo with one extra save", async () => {
    const photo = await generatedFile("photo-full-page.pdf");
    const result = await compressPdf(photo, fixed({ profile: "ebook", max_size_mb: 0.1 }));
    expect(result.stats.target_met).toBe(true);
    expect(result.bytes.byteLength).toBeLessThanOrEqual(0.1 * MB);
    expect(result.stats.target_search?.saves).toBe(2);
    expect(comparePdfRenders(photo, result.bytes, { dpi: 50, maxPages: 1 })[0]?.ssim).toBeGreaterThan(0.85);
  });

  it("under a perceptual floor, returns the floor's output when it fits, else lowers a ceiling from the highest quality it used", async () => {
    const floored = await compressPdf(input, options({ profile: "ebook" }));
    const used = floored.stats.images.map((image) => image.after?.quality ?? 0);
    const highest = Math.max(...used);
    const roomy = await compressPdf(input, options({ profile: "ebook", max_size_mb: (floored.bytes.byteLength + 1) / MB }));
    expect(roomy.bytes).toEqual(floored.bytes);
    expect(roomy.stats.target_search?.saves).toBe(1);
    const targetBytes = Math.floor(floored.bytes.byteLength * 0.9);
    // min_quality below the floor's qualities, so that the ceiling can reach them.
    const tight = await compressPdf(input, options({ profile: "ebook", max_size_mb: targetBytes / MB, min_quality: 20 }));
    expect(tight.stats.target_met).toBe(true);
    expect(tight.bytes.byteLength).toBeLessThanOrEqual(targetBytes);
    const ceiling = tight.stats.target_search?.quality ?? 0;
    expect(ceiling).toBeLessThan(highest);
    for (const [index, image] of tight.stats.images.entries()) expect(image.after?.quality).toBe(Math.min(used[index] ?? 0, ceiling));
  });
});
