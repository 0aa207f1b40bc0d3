// verify_quality on a real-world photo document (pdf.js issue 19971).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PDF_VERIFY_DPI, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";
import { compressPdf } from "./compress-pdf.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);

describe("compressPdf with verify_quality on the corpus", () => {
  it("brings every page of a corpus file to the threshold", async () => {
    const photos = new Uint8Array(readFileSync(corpusPath("pdf/pdfjs_issue19971_photos.pdf")));
    const result = await compressPdf(photos, options({ profile: "screen", verify_quality: true, ssim_threshold: 0.98 }));
    expect(result.returned_original).toBe(false);
    expect(result.stats.verify?.pages).toHaveLength(result.stats.pages);
    expect(result.stats.verify?.min_ssim).toBeGreaterThanOrEqual(0.98);
    const rendered = comparePdfRenders(photos, result.bytes, { dpi: PDF_VERIFY_DPI, maxPages: result.stats.pages });
    for (const page of rendered) expect(page.ssim, `page ${page.page}`).toBeGreaterThanOrEqual(0.98);
  });
});
