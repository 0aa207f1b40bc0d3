// The compress engine: refuses what it must not touch, rewrites images at their
// placed resolution, strips and subsets, saves, and proves the output sound by
// reopening it. Any failure after the refusals returns the original untouched.
import type * as mupdf from "mupdf";
import type { PdfCompressOptions } from "../../workers/contracts/pdf-options.ts";
import { ProblemError } from "../../workers/contracts/problems.ts";
import { measureComposition } from "./composition.ts";
import type { BytesByCategory } from "./composition.ts";
import { conformanceClaims, removeConformanceClaims } from "./conformance.ts";
import { documentShape, shapeDifference } from "./document-shape.ts";
import { inspectImages } from "./image-facts.ts";
import { openPdf, readOrUnreadable } from "./open-pdf.ts";
import { resolveImageTargets } from "./profiles.ts";
import { rewriteImages } from "./rewrite-images.ts";
import { saveOptions } from "./save-options.ts";
import type { ImageRewriteStat } from "./rewrite-images.ts";
import { signedFieldNames } from "./signatures.ts";
import { stripDocument } from "./strip-document.ts";

export interface PdfCompressStats {
  original_bytes: number;
  output_bytes: number;
  ratio: number;
  pages: number;
  profile: string;
  images_rewritten: number;
  images_kept: number;
  bytes_saved_by_category: BytesByCategory;
  images: ImageRewriteStat[];
}

export interface PdfCompressResult {
  bytes: Uint8Array;
  stats: PdfCompressStats;
  warnings: string[];
  returned_original: boolean;
}

type CategoryKey = keyof BytesByCategory;

function savedByCategory(before: BytesByCategory, after: BytesByCategory): BytesByCategory {
  const saved = { ...before };
  for (const key of Object.keys(before) as CategoryKey[]) saved[key] = before[key] - after[key];
  return saved;
}

function refuseProtected(doc: mupdf.PDFDocument, options: PdfCompressOptions): boolean {
  const signed = signedFieldNames(doc);
  if (signed.length > 0 && !options.allow_signature_break) {
    throw new ProblemError("pdf_signed", `The PDF is signed (fields: ${signed.join(", ")}); set allow_signature_break to compress it anyway.`, {
      extensions: { signature_fields: signed },
    });
  }
  const claims = conformanceClaims(doc);
  if (claims.length > 0 && !options.allow_conformance_break) {
    const names = claims.map((claim) => `${claim.standard} ${claim.part}${claim.conformance ?? ""}`).join(", ");
    throw new ProblemError("pdf_conformance", `The PDF claims ${names}; set allow_conformance_break to compress it anyway.`);
  }
  return claims.length > 0;
}

function subsetFontsOrWarn(doc: mupdf.PDFDocument, warnings: string[]): void {
  try {
    doc.subsetFonts();
  } catch (error) {
    warnings.push(`Fonts were not subset: ${String(error)}`);
  }
}

function noSavings(): BytesByCategory {
  return { images: 0, fonts: 0, content_streams: 0, metadata: 0, embedded_files: 0, thumbnails: 0, other: 0 };
}

function originalResult(input: Uint8Array, stats: PdfCompressStats, warning: string): PdfCompressResult {
  const images = stats.images.map((image) => ({ ...image, after: null }));
  const kept = { ...stats, output_bytes: input.byteLength, ratio: 1, images_rewritten: 0, images_kept: images.length, images, bytes_saved_by_category: noSavings() };
  return { bytes: input, stats: kept, warnings: [warning], returned_original: true };
}

export async function compressPdf(input: Uint8Array, options: PdfCompressOptions): Promise<PdfCompressResult> {
  const opened = openPdf(input, options.password);
  const { doc } = opened;
  const targets = resolveImageTargets(options);
  const warnings: string[] = [];
  const stats: PdfCompressStats = {
    original_bytes: input.byteLength,
    output_bytes: input.byteLength,
    ratio: 1,
    pages: 0,
    profile: targets.profile,
    images_rewritten: 0,
    images_kept: 0,
    bytes_saved_by_category: noSavings(),
    images: [],
  };
  let output: Uint8Array;
  try {
    const breaksConformance = readOrUnreadable("reading its signatures and conformance", () => refuseProtected(doc, options));
    const shapeBefore = readOrUnreadable("reading its pages", () => documentShape(doc));
    const compositionBefore = readOrUnreadable("reading its objects", () => measureComposition(doc, input.byteLength));
    stats.pages = shapeBefore.pages.length;
    if (breaksConformance) warnings.push("The input claimed PDF/A or PDF/X conformance; the output no longer claims it.");
    if (signedFieldNames(doc).length > 0) warnings.push("The input was signed; its signatures are no longer valid.");
    try {
      if (breaksConformance) removeConformanceClaims(doc);
      stripDocument(doc, options.strip);
      stats.images = await rewriteImages(doc, inspectImages(doc), targets);
      stats.images_rewritten = stats.images.filter((image) => image.after !== null).length;
      stats.images_kept = stats.images.length - stats.images_rewritten;
      if (options.fonts.subset) subsetFontsOrWarn(doc, warnings);
      const saved = doc.saveToBuffer(saveOptions(options, opened.encrypted));
      output = saved.asUint8Array().slice();
      saved.destroy();
    } catch (error) {
      return originalResult(input, stats, `Compression failed, the original is returned: ${String(error)}`);
    }
    const problem = verifyOutput(output, opened.password, opened.encrypted, shapeBefore, compositionBefore, stats);
    if (problem !== null) return originalResult(input, stats, `The output failed verification (${problem}); the original is returned.`);
  } finally {
    doc.destroy();
  }
  if (output.byteLength >= input.byteLength) return originalResult(input, stats, "The output was not smaller than the input; the original is returned.");
  return { bytes: output, stats: { ...stats, output_bytes: output.byteLength, ratio: output.byteLength / input.byteLength }, warnings, returned_original: false };
}

function verifyOutput(
  output: Uint8Array,
  password: string | null,
  encrypted: boolean,
  shapeBefore: ReturnType<typeof documentShape>,
  compositionBefore: BytesByCategory,
  stats: PdfCompressStats,
): string | null {
  let reopened: ReturnType<typeof openPdf>;
  try {
    reopened = openPdf(output, password);
  } catch (error) {
    return `it does not reopen: ${String(error)}`;
  }
  try {
    if (reopened.encrypted !== encrypted) return "its encryption changed";
    const difference = shapeDifference(shapeBefore, documentShape(reopened.doc));
    if (difference !== null) return difference;
    stats.bytes_saved_by_category = savedByCategory(compositionBefore, measureComposition(reopened.doc, output.byteLength));
    return null;
  } finally {
    reopened.doc.destroy();
  }
}
