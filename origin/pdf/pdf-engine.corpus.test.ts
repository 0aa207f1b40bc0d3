// Every file of the PDF corpus (CORPUS_DIR/pdf) through analyze and compress (profile ebook),
// once, in a shared beforeAll on a two-thread worker pool; the tests then check
// facts known from how the files were made or named, soundness of every output,
// and the honesty of the projection.
import fs from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";
import { analyzePdf } from "./analyze-pdf.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import { compressPdf } from "./compress-pdf.ts";
import type { PdfCompressResult } from "./compress-pdf.ts";
import { PdfWorkerPool } from "./pdf-worker-pool.ts";
import { problemOf } from "./test-support/expect-problem.ts";
import { comparePdfRenders } from "./test-support/render-compare.ts";

const CORPUS = corpusPath("pdf");
const FILES = fs.readdirSync(CORPUS).filter((name) => name.endsWith(".pdf")).sort();
// The password of py-pdf/sample-files 005-libreoffice-writer-password, as its README documents.
const PASSWORDS: Record<string, string> = { "pypdf_encrypted_userpw.pdf": "openpassword" };
// Its trailer has no catalog and its page tree object is missing: nothing to read pages from.
const UNREADABLE = new Set(["pypdf_unreadablemeta.pdf"]);
const READABLE = FILES.filter((name) => !UNREADABLE.has(name));

interface CorpusRun {
  input: Uint8Array;
  analysis: PdfAnalysis;
  compressed: PdfCompressResult;
}

const runs = new Map<string, CorpusRun>();
const read = (name: string) => new Uint8Array(fs.readFileSync(path.join(CORPUS, name)));
const run = (name: string): CorpusRun => {
  const found = runs.get(name);
  if (found === undefined) throw new Error(`no run for ${name}`);
  return found;
};

function pageFacts(bytes: Uint8Array, password: string | undefined) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  if (password !== undefined) doc.authenticatePassword(password);
  const pages = [];
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.loadPage(index) as mupdf.PDFPage;
    pages.push({ bounds: page.getBounds(), links: page.getLinks().length, widgets: page.getWidgets().map((widget) => widget.getName()) });
  }
  doc.destroy();
  return pages;
}

const pool = new PdfWorkerPool({ size: 2 });
afterAll(() => pool.close());

beforeAll(async () => {
  await Promise.all(
    READABLE.map(async (name) => {
      const input = read(name);
      const password = PASSWORDS[name] ?? null;
      const options = pdfCompressOptionsSchema.parse({ profile: "ebook", password, allow_signature_break: true, allow_conformance_break: true });
      const [analysis, compressed] = await Promise.all([pool.analyze(input, { password }), pool.compress(input, options)]);
      runs.set(name, { input, analysis, compressed });
    }),
  );
}, 300_000);

describe("analyze on the corpus", () => {
  it("refuses the file without a page tree as pdf_unreadable", async () => {
    for (const name of UNREADABLE) expect((await problemOf(analyzePdf(read(name), { password: null }))).slug).toBe("pdf_unreadable");
  });

  it.each(READABLE)("%s: categories add up to the file size, one size per page", (name) => {
    const { analysis, input } = run(name);
    expect(Object.values(analysis.composition.bytes).reduce((a, b) => a + b, 0)).toBe(input.byteLength);
    expect(analysis.composition.page_sizes_pt).toHaveLength(analysis.composition.pages);
    for (const image of analysis.images) if (image.effective_dpi !== null) expect(image.effective_dpi).toBeGreaterThan(0);
  });

  it("finds the images the synthetic files were made with", () => {
    const [photo] = run("syn_photo_fullpage_q95.pdf").analysis.images;
    expect(photo).toMatchObject({ filters: ["DCTDecode"], colorspace: { family: "DeviceRGB" }, estimated_jpeg_quality: 95 });
    expect(photo?.effective_dpi).toBeCloseTo(300, 0);
    const bilevel = run("syn_scan300_bilevel_flate.pdf").analysis;
    expect(bilevel.images.map((image) => [image.bits_per_component, image.filters[0], Math.round(image.effective_dpi ?? 0)])).toEqual([
      [1, "FlateDecode", 300],
      [1, "FlateDecode", 300],
      [1, "FlateDecode", 300],
    ]);
    const gray = run("syn_scan300_grayjpeg.pdf").analysis.images;
    expect(gray.map((image) => [image.colorspace.family, image.filters[0], Math.round(image.effective_dpi ?? 0)])).toEqual([
      ["DeviceGray", "DCTDecode", 300],
      ["DeviceGray", "DCTDecode", 300],
      ["DeviceGray", "DCTDecode", 300],
    ]);
    expect(run("syn_photo_flate.pdf").analysis.images.map((image) => image.filters)).toEqual([["FlateDecode"]]);
    expect(run("syn_photo_placed_small.pdf").analysis.images[0]?.effective_dpi).toBeGreaterThan(300);
    expect(run("syn_vector_only.pdf").analysis.images).toEqual([]);
  });

  it("names colour spaces and filters of the pdf.js and pypdf samples", () => {
    expect(run("pdfjs_cmykjpeg.pdf").analysis.images[0]).toMatchObject({ filters: ["DCTDecode"], colorspace: { family: "DeviceCMYK" } });
    expect(run("pypdf_cmyk_image.pdf").analysis.images[0]?.colorspace).toMatchObject({ family: "Indexed", base: { family: "DeviceCMYK" } });
    expect(run("pdfjs_issue5567_jpx.pdf").analysis.images[0]?.filters).toEqual(["JPXDecode"]);
    const s2 = run("pdfjs_S2_indexed_jpx.pdf").analysis.images;
    expect(s2.some((image) => image.filters.includes("JPXDecode"))).toBe(true);
    expect(s2.some((image) => image.colorspace.family === "Indexed")).toBe(true);
    expect(run("pdfjs_tracemonkey.pdf").analysis.composition.pages).toBe(14);
  });

  it("flags signatures, PDF/A, forms, XFA and encryption", () => {
    for (const name of ["pdfjs_signed_verified.pdf", "syn_signed_valid.pdf"]) {
      expect(run(name).analysis.flags.signed).toBe(true);
      expect(run(name).analysis.flags.signature_fields.length).toBeGreaterThan(0);
    }
    expect(run("pypdf_pdfa1b.pdf").analysis.flags.conformance).toEqual([{ standard: "PDF/A", part: "1", conformance: "B" }]);
    expect(run("pdfjs_xfa_form.pdf").analysis.flags.forms.xfa).toBe(true);
    expect(run("pypdf_acroform.pdf").analysis.flags.forms.acroform).toBe(true);
    expect(run("pypdf_encrypted_userpw.pdf").analysis.flags.encrypted).toBe(true);
    expect(run("syn_vector_only.pdf").analysis.flags).toMatchObject({ encrypted: false, signed: false, conformance: [] });
  });

  it("answers truncated files with a result or a problem, never an internal error", async () => {
    const options = pdfCompressOptionsSchema.parse({ allow_signature_break: true, allow_conformance_break: true });
    for (const name of ["pdfjs_signed_verified.pdf", "pypdf_acroform.pdf", "pypdf_pdfa1b.pdf", "pdfjs_cmykjpeg.pdf", "syn_vector_only.pdf"]) {
      for (const share of [0.3, 0.6, 0.9]) {
        const input = read(name);
        const truncated = input.subarray(0, Math.floor(input.byteLength * share));
        for (const attempt of [analyzePdf(truncated, { password: null }), compressPdf(truncated, options)]) {
          const outcome = await attempt.then(
            () => "result",
            (error: unknown) => (error instanceof ProblemError ? error.status : String(error)),
          );
          expect(["result", 422], `${name} at ${share}`).toContain(outcome);
        }
      }
    }
  });

  it("requires the password of the encrypted sample", async () => {
    expect((await problemOf(analyzePdf(read("pypdf_encrypted_userpw.pdf"), { password: null }))).slug).toBe("pdf_password_required");
    expect((await problemOf(analyzePdf(read("pypdf_encrypted_userpw.pdf"), { password: "wrong" }))).slug).toBe("pdf_password_invalid");
  });
});

describe("compress (ebook) on the corpus", () => {
  it.each(READABLE)("%s: reopens with the same pages, sizes, links and form fields, and renders close", (name) => {
    const { input, compressed } = run(name);
    const password = PASSWORDS[name];
    expect(compressed.bytes.byteLength).toBeLessThanOrEqual(input.byteLength);
    expect(compressed.returned_original).toBe(Buffer.from(compressed.bytes).equals(Buffer.from(input)));
    const before = pageFacts(input, password);
    const after = pageFacts(compressed.bytes, password);
    expect(after.length).toBe(before.length);
    after.forEach((page, index) => {
      const original = before[index];
      page.bounds.forEach((value, i) => expect(value).toBeCloseTo(original?.bounds[i] ?? Number.NaN, 2));
      expect(page.links).toBe(original?.links);
      expect(page.widgets).toEqual(original?.widgets);
    });
    // 100 dpi: below it, downsampled stripes and halftones alias differently in the two renders.
    for (const page of comparePdfRenders(input, compressed.bytes, { dpi: 100, maxPages: 3, password: password ?? null })) {
      expect(page.ssim, `page ${page.page}`).toBeGreaterThan(0.95);
      expect(page.meanAbsDiff, `page ${page.page}`).toBeLessThan(6);
    }
  });

  it("keeps the encrypted sample encrypted with its password", () => {
    const doc = mupdf.Document.openDocument(run("pypdf_encrypted_userpw.pdf").compressed.bytes, "application/pdf");
    expect(doc.needsPassword()).toBe(true);
    expect(doc.authenticatePassword("openpassword")).toBeGreaterThan(0);
    doc.destroy();
  });

  it("refuses the signed and PDF/A samples without the break flags", async () => {
    const defaults = pdfCompressOptionsSchema.parse({});
    for (const name of ["pdfjs_signed_verified.pdf", "syn_signed_valid.pdf"]) expect((await problemOf(compressPdf(read(name), defaults))).slug).toBe("pdf_signed");
    const refusal = await compressPdf(read("pypdf_pdfa1b.pdf"), defaults).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProblemError);
    expect((refusal as ProblemError).slug).toBe("pdf_conformance");
  });

  it("projects the ebook output size of every file close to what compress produced", () => {
    const rows = READABLE.map((name) => {
      const { analysis, compressed } = run(name);
      return { name, projected: analysis.projection.ebook.estimated_bytes, actual: compressed.bytes.byteLength };
    });
    const logErrors = rows.map((row) => Math.abs(Math.log(row.projected / row.actual)));
    const meanLogError = logErrors.reduce((a, b) => a + b, 0) / logErrors.length;
    const worst = rows[logErrors.indexOf(Math.max(...logErrors))];
    console.info(`projection vs compress (ebook): mean |log error| ${meanLogError.toFixed(3)}, worst ${worst?.name} ${worst?.projected} vs ${worst?.actual}`);
    expect(meanLogError).toBeLessThan(0.03);
    expect(Math.max(...logErrors)).toBeLessThan(Math.log(1.15));
  });

  it("shrinks the corpus to at most 0.30 of its size in total", () => {
    const inputs = READABLE.map((name) => run(name).input.byteLength);
    const outputs = READABLE.map((name) => run(name).compressed.bytes.byteLength);
    const total = outputs.reduce((a, b) => a + b, 0) / inputs.reduce((a, b) => a + b, 0);
    const geomean = Math.exp(outputs.reduce((sum, out, i) => sum + Math.log(out / (inputs[i] ?? out)), 0) / outputs.length);
    console.info(`corpus (ebook, ${READABLE.length} readable files): total out/in ${total.toFixed(3)}, geometric mean ${geomean.toFixed(3)}`);
    expect(total).toBeLessThanOrEqual(0.3);
  });
});
