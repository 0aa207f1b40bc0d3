// compressPdf on real-world files whose point is how a real producer wrote them.
import { readFileSync } from "node:fs";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";
import { compressPdf } from "./compress-pdf.ts";
import { forEachObject } from "./pdf-objects.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);

describe("compressPdf on the corpus", () => {
  it("leaves no unreachable copy of a LibreOffice hybrid PDF's editable source behind", async () => {
    // The corpus file's trailer points /AdditionalStreams at a 390 kB ODF package (a zip).
    const input = new Uint8Array(readFileSync(corpusPath("pdf/pdfjs_issue1905_lo.pdf")));
    const zipStreams = (bytes: Uint8Array) => {
      const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
      let found = 0;
      forEachObject(doc, (_, ref) => {
        if (ref.isStream() && new TextDecoder("latin1").decode(ref.readStream().asUint8Array().subarray(0, 100)).includes("mimetypeapplication/vnd.oasis")) found++;
      });
      doc.destroy();
      return found;
    };
    expect(zipStreams(input)).toBe(1);
    const result = await compressPdf(input, options());
    expect(result.returned_original).toBe(false);
    expect(zipStreams(result.bytes)).toBe(0);
    expect(input.byteLength - result.bytes.byteLength).toBeGreaterThan(390_000);
  });
});
