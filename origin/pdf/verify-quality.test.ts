import { beforeAll, describe, expect, it } from "vitest";
import { PDF_VERIFY_DPI, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { buildPdf, jpegImage } from "./test-support/generate-pdf.ts";
import { pageImages } from "./test-support/inspect-output.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";
import { VERIFY_RAISED_QUALITY } from "./verify-quality.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);

describe("compressPdf with verify_quality", () => {
  let input: Uint8Array;

  beforeAll(async () => {
    // Page 1 shows a noisy photo large; page 2 a second photo drawn small, where a crude encoding barely shows.
    const photos = [await jpegImage("Large", 1200, 800, 92), await jpegImage("Thumb", 600, 400, 92)];
    input = buildPdf(photos, [[{ image: "Large", x: 36, y: 200, width: 540, height: 360 }], [{ image: "Thumb", x: 72, y: 400, width: 72, height: 48 }]]);
  });

  it("scores every page, and re-encodes only the images of failing pages until they pass or are kept", async () => {
    const threshold = 0.99;
    const result = await compressPdf(input, options({ profile: "custom", max_dpi: 300, image_quality: 8, verify_quality: true, ssim_threshold: threshold }));
    const verify = result.stats.verify;
    expect(verify).toMatchObject({ dpi: PDF_VERIFY_DPI, threshold });
    // The reported scores are those of the returned file, computed here independently of the engine's run.
    const rendered = comparePdfRenders(input, result.bytes, { dpi: PDF_VERIFY_DPI, maxPages: 2 });
    expect(verify?.pages.map((page) => page.page)).toEqual([1, 2]);
    verify?.pages.forEach((page, index) => expect(page.ssim).toBeCloseTo(rendered[index]?.ssim ?? Number.NaN, 4));
    expect(verify?.min_ssim).toBe(Math.min(...(verify?.pages.map((page) => page.ssim) ?? [])));
    const [large, thumb] = [result.stats.images.find((image) => image.pages.includes(1)), result.stats.images.find((image) => image.pages.includes(2))];
    // Page 2 passed at quality 8; page 1 did not, so its image was raised or kept original.
    expect(thumb?.after?.quality).toBe(8);
    expect(large?.after === null || large?.after.quality === VERIFY_RAISED_QUALITY).toBe(true);
    expect((verify?.images_restored ?? 0) + (verify?.images_requality ?? 0)).toBe(1);
    expect(verify?.pages.find((page) => page.page === 1)?.ssim).toBeGreaterThanOrEqual(large?.after === null ? 0 : threshold);
    if (large?.after === null) {
      const originalRaw = pageImages(input)[0]?.[0]?.raw;
      expect(Buffer.from(pageImages(result.bytes)[0]?.[0]?.raw ?? []).equals(Buffer.from(originalRaw ?? []))).toBe(true);
    }
  });

  it("leaves a passing file as the plain compress made it", async () => {
    const plain = await compressPdf(input, options({ profile: "ebook" }));
    const verified = await compressPdf(input, options({ profile: "ebook", verify_quality: true, ssim_threshold: 0.9 }));
    expect(verified.stats.verify).toMatchObject({ images_restored: 0, images_requality: 0, rounds: 0 });
    expect(verified.stats.verify?.min_ssim).toBeGreaterThanOrEqual(0.9);
    expect(Buffer.from(verified.bytes).equals(Buffer.from(plain.bytes))).toBe(true);
    expect(plain.stats.verify).toBeUndefined();
  });
});
