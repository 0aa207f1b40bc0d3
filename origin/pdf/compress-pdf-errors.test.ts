// How compress classifies a failure after its refusals: the document's problem returns the
// original with a stable code and no internal text; our own bug is thrown, to become a 500.
// The failure is planted in the linearize step, the last one a request can switch on.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { buildPdf, jpegImage } from "./test-support/generate-pdf.ts";

const planted = vi.hoisted(() => ({ error: null as Error | null }));

vi.mock("./linearize.ts", () => ({
  linearizePdf: () => Promise.reject(planted.error ?? new Error("no failure planted")),
}));

const options = pdfCompressOptionsSchema.parse({ linearize: true });

describe("compressPdf failure classes", () => {
  let input: Uint8Array;

  beforeAll(async () => {
    const photo = await jpegImage("Photo", 1200, 800, 92);
    input = buildPdf([photo], [[{ image: "Photo", x: 72, y: 400, width: 288, height: 192 }]]);
  });

  it("returns the original with document_unprocessable when a library fails on the file's content", async () => {
    planted.error = new Error("qpdf: /tmp/in.pdf: xref stream /Index is damaged at offset 4711");
    const result = await compressPdf(input, options);
    expect(result.returned_original).toBe(true);
    expect(result.bytes).toBe(input);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["document_unprocessable"]);
    expect(JSON.stringify(result.warnings)).not.toMatch(/qpdf|xref|offset|tmp/);
    expect(result.stats.linearize).toBeUndefined();
  });

  it("throws a bug in our code instead of passing it off as the document's", async () => {
    planted.error = new TypeError("Cannot read properties of undefined (reading 'length')");
    await expect(compressPdf(input, options)).rejects.toThrow(TypeError);
  });
});
