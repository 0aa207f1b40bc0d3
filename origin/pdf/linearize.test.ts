import * as mupdf from "mupdf";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { compressPdf } from "./compress-pdf.ts";
import { linearizePdf } from "./linearize.ts";
import { buildPdf, jpegImage } from "./test-support/generate-pdf.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const PASSWORD = "s3cret pass";

/** Debian qpdf's own verdict on the file: its report lines, and whether it found the file linearized and sound. */
function checkLinearization(bytes: Uint8Array, password: string | null = null): { linearized: boolean; report: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "linearize-")), "out.pdf");
  fs.writeFileSync(file, bytes);
  const args = ["--check-linearization", file];
  if (password !== null) args.unshift(`--password=${password}`);
  let report: string;
  try {
    report = execFileSync("qpdf", args, { encoding: "utf8" });
  } catch (error) {
    report = String((error as { stdout?: string }).stdout ?? error);
  }
  return { linearized: report.includes("no linearization errors"), report };
}

async function photoPdf(pages: number): Promise<Uint8Array> {
  const photo = await jpegImage("Photo", 1600, 1200, 95);
  return buildPdf([photo], Array.from({ length: pages }, () => [{ image: "Photo", x: 36, y: 200, width: 288, height: 216 }]));
}

function encrypted(bytes: Uint8Array): Uint8Array {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  try {
    return doc.saveToBuffer(`encrypt=aes-256,user-password=${PASSWORD},owner-password=${PASSWORD}-owner`).asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

describe("linearize", () => {
  let input: Uint8Array;

  beforeAll(async () => {
    input = await photoPdf(3);
  });

  it("is off by default: qpdf finds the output not linearized", async () => {
    const result = await compressPdf(input, pdfCompressOptionsSchema.parse({}));
    expect(result.returned_original).toBe(false);
    expect(result.stats.linearize).toBeUndefined();
    expect(checkLinearization(result.bytes).linearized).toBe(false);
  });

  it("linearizes the compressed output so that qpdf --check-linearization passes, pages unchanged", async () => {
    const result = await compressPdf(input, pdfCompressOptionsSchema.parse({ linearize: true }));
    expect(result.returned_original).toBe(false);
    const check = checkLinearization(result.bytes);
    expect(check.linearized, check.report).toBe(true);
    expect(result.stats.linearize).toMatchObject({ bytes_after: result.bytes.byteLength });
    expect(result.stats.output_bytes).toBe(result.bytes.byteLength);
    for (const page of comparePdfRenders(input, result.bytes, { dpi: 36, maxPages: 3 })) expect(page.ssim, `page ${page.page}`).toBeGreaterThan(0.9);
  });

  it("keeps an encrypted input encrypted with its password", async () => {
    const result = await compressPdf(encrypted(input), pdfCompressOptionsSchema.parse({ linearize: true, password: PASSWORD }));
    expect(result.returned_original).toBe(false);
    const check = checkLinearization(result.bytes, PASSWORD);
    expect(check.linearized, check.report).toBe(true);
    const doc = mupdf.Document.openDocument(result.bytes, "application/pdf");
    try {
      expect(doc.needsPassword()).toBe(true);
      expect(doc.authenticatePassword(PASSWORD)).toBeGreaterThan(0);
      expect(doc.countPages()).toBe(3);
    } finally {
      doc.destroy();
    }
  });

  it("fails loudly on bytes that are not a PDF, so compress returns the original instead", async () => {
    await expect(linearizePdf(new TextEncoder().encode("not a pdf at all"), null)).rejects.toThrow(/qpdf could not linearize/);
  });
});
