import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import { describe, expect, inject, it } from "vitest";
import { PDF_SMALL_TIER_BYTES, prices } from "../contracts/pricing.ts";
import { PDF_SYNC_MAX_BYTES } from "../workers/operations/pdf-compress.ts";
import { largePdf } from "./support/large-pdf.ts";
import { compressPdfByUploadJob, downloadTo } from "./support/pdf-upload-job.ts";

const edge = inject("edgeUrl");
const apiKey = inject("apiKey");

/** Above the small price tier (and so above the sync cap), small enough for CI. */
const INPUT_MIN_BYTES = 32 * 1024 * 1024;

function openPdf(file: string): mupdf.PDFDocument {
  return mupdf.Document.openDocument(fs.readFileSync(file), "application/pdf") as mupdf.PDFDocument;
}

/** Pixel width of the one image each generated page draws. */
function firstPageImageWidth(doc: mupdf.PDFDocument): number {
  const xobjects = doc.findPage(0).get("Resources").get("XObject");
  let width = 0;
  xobjects.forEach((image) => {
    width = image.get("Width").asNumber();
  });
  return width;
}

describe("a large PDF through presigned upload and an async compress job (npm start)", () => {
  it(
    "compresses it, serves an output with the same pages that is smaller, and charges the 25 to 200 MB tier",
    async () => {
      const input = await largePdf(INPUT_MIN_BYTES);
      expect(input.bytes).toBeGreaterThan(PDF_SMALL_TIER_BYTES);
      expect(input.bytes).toBeGreaterThan(PDF_SYNC_MAX_BYTES);

      const run = await compressPdfByUploadJob(edge, apiKey, input.path, { profile: "ebook" });
      expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
      const result = run.result!;
      expect(result.returned_original).toBe(false);
      expect(result.billing.charged_micros).toBe(prices.pdfCompressUpTo200MB);
      expect(result.stats.original_bytes).toBe(input.bytes);

      const outputPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "large-pdf-e2e-")), "output.pdf");
      try {
        const outputBytes = await downloadTo(result.url!, outputPath);
        expect(outputBytes).toBe(result.stats.output_bytes);
        expect(outputBytes).toBeLessThan(input.bytes);

        const before = openPdf(input.path);
        const after = openPdf(outputPath);
        expect(after.countPages()).toBe(input.pages);
        expect(after.countPages()).toBe(before.countPages());
        // The images were resampled towards 150 dpi from about 350, not merely repacked.
        expect(firstPageImageWidth(after)).toBeLessThan(firstPageImageWidth(before) / 2);
        before.destroy();
        after.destroy();
      } finally {
        fs.rmSync(path.dirname(outputPath), { recursive: true, force: true });
      }
    },
    600_000,
  );
});
