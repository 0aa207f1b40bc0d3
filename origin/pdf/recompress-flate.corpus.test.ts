// Zopfli recompression on a real-world form (pypdf's AcroForm sample).
import { readFileSync } from "node:fs";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";
import { compressPdf } from "./compress-pdf.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);

describe("compressPdf with zopfli on the corpus", () => {
  it("keeps a corpus form intact and renders it identically", async () => {
    const input = new Uint8Array(readFileSync(corpusPath("pdf/pypdf_acroform.pdf")));
    const plain = await compressPdf(input, options());
    const zopfli = await compressPdf(input, options({ zopfli: true }));
    expect(zopfli.bytes.byteLength).toBeLessThanOrEqual(plain.bytes.byteLength);
    expect(zopfli.stats.zopfli?.streams_examined).toBeGreaterThan(0);
    const doc = mupdf.Document.openDocument(zopfli.bytes, "application/pdf");
    const widgets = (doc.loadPage(0) as mupdf.PDFPage).getWidgets().length;
    doc.destroy();
    expect(widgets).toBeGreaterThan(0);
    for (const page of comparePdfRenders(plain.bytes, zopfli.bytes, { dpi: 72, maxPages: 2 })) expect(page.meanAbsDiff).toBe(0);
  });
});
