// The compress engine: refuses what it must not touch, rewrites images at their
// placed resolution, strips and subsets, saves, and proves the output sound by
// reopening it. After the refusals, a document problem (mupdf or a codec failing on
// the file's content) returns the original with the warning `document_unprocessable`;
// a bug in our own code (TypeError, RangeError, ...) is not a document problem and
// propagates, to become a 500 logged at the origin.
import type * as mupdf from "mupdf";
import type { PdfBytesByCategory as BytesByCategory, PdfCompressReply, PdfCompressStats, PdfWarning } from "../../contracts/origin/pdf-compress.ts";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { measureComposition } from "./composition.ts";
import { conformanceClaims } from "./conformance.ts";
import { isDocumentProblem } from "./document-problem.ts";
import { documentShape, shapeDifference } from "./document-shape.ts";
import { linearizePdf } from "./linearize.ts";
import { openPdf, readOrUnreadable } from "./open-pdf.ts";
import { OutputRuns } from "./output-runs.ts";
import type { ProducedOutput } from "./output-runs.ts";
import { resolveImageTargets } from "./profiles.ts";
import type { ImageOverride } from "./rewrite-images.ts";
import { signedFieldNames } from "./signatures.ts";
import { meetSizeTarget, targetBytesOf } from "./size-target.ts";
import { escalateFailingImages, measurePageSsims, summarizeVerify, VERIFY_MAX_ROUNDS } from "./verify-quality.ts";
import type { PageSsim } from "./verify-quality.ts";
import { recompressFlateStreams } from "./recompress-flate.ts";
import type { RecompressStats } from "./recompress-flate.ts";

/** The contract's reply, with the bytes it is framed in front of. */
export interface PdfCompressResult extends PdfCompressReply {
  bytes: Uint8Array;
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

function noSavings(): BytesByCategory {
  return { images: 0, fonts: 0, content_streams: 0, metadata: 0, embedded_files: 0, thumbnails: 0, other: 0 };
}

/** The input itself; what verify_quality, zopfli, jbig2 and linearize measured described the discarded output, so they are left out. */
function originalResult(input: Uint8Array, { verify: _verify, zopfli: _zopfli, jbig2: _jbig2, linearize: _linearize, ...stats }: PdfCompressStats, warning: PdfWarning): PdfCompressResult {
  const images = stats.images.map((image) => ({ ...image, after: null }));
  const kept = { ...stats, output_bytes: input.byteLength, ratio: 1, images_rewritten: 0, images_kept: images.length, images, bytes_saved_by_category: noSavings() };
  return { bytes: input, stats: kept, warnings: [warning], returned_original: true };
}

export async function compressPdf(input: Uint8Array, options: PdfCompressOptions): Promise<PdfCompressResult> {
  return withTarget(await compressDocument(input, options), options);
}

async function compressDocument(input: Uint8Array, options: PdfCompressOptions): Promise<PdfCompressResult> {
  const opened = openPdf(input, options.password);
  const { doc } = opened;
  const targets = resolveImageTargets(options);
  const warnings: PdfWarning[] = [];
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
    if (breaksConformance) warnings.push({ code: "conformance_removed", detail: "The input claimed PDF/A or PDF/X conformance; the output no longer claims it." });
    if (signedFieldNames(doc).length > 0) warnings.push({ code: "signatures_invalidated", detail: "The input was signed; its signatures are no longer valid." });
    try {
      const runs = new OutputRuns({ input, options, password: opened.password, encrypted: opened.encrypted, breaksConformance, warnings });
      let produced = await runs.first(doc, targets);
      const targetBytes = targetBytesOf(options);
      if (targetBytes !== null) {
        const outcome = await meetSizeTarget(runs, produced, targets, options.min_quality, targetBytes);
        produced = outcome.output;
        stats.target_search = outcome.search;
      }
      if (options.verify_quality) produced = await verifyQuality(runs, produced, input, opened.password, options.ssim_threshold, stats);
      stats.images = produced.rewrites.stats;
      if (produced.jbig2 !== null) stats.jbig2 = produced.jbig2;
      stats.images_rewritten = stats.images.filter((image) => image.after !== null).length;
      stats.images_kept = stats.images.length - stats.images_rewritten;
      output = options.zopfli ? await zopfliOutput(runs, produced.bytes, stats) : produced.bytes;
      if (options.linearize) {
        const linearized = await linearizePdf(output, opened.password);
        stats.linearize = linearized.stats;
        output = linearized.bytes;
      }
    } catch (error) {
      if (!isDocumentProblem(error)) throw error;
      return originalResult(input, stats, { code: "document_unprocessable", detail: "Part of the document could not be rewritten; the original is returned." });
    }
    const problem = verifyOutput(output, opened.password, opened.encrypted, shapeBefore, compositionBefore, stats);
    if (problem !== null) return originalResult(input, stats, { code: "output_unsound", detail: `The output failed verification (${problem}); the original is returned.` });
  } finally {
    doc.destroy();
  }
  if (output.byteLength >= input.byteLength) return originalResult(input, stats, { code: "not_smaller", detail: "The output was not smaller than the input; the original is returned." });
  return { bytes: output, stats: { ...stats, output_bytes: output.byteLength, ratio: output.byteLength / input.byteLength }, warnings, returned_original: false };
}

/** Whether the file returned, output or original, fits the size target. */
function withTarget(result: PdfCompressResult, options: PdfCompressOptions): PdfCompressResult {
  const targetBytes = targetBytesOf(options);
  if (targetBytes === null) return result;
  const met = result.bytes.byteLength <= targetBytes;
  if (!met) result.warnings.push({ code: "target_not_met", detail: `The size target of ${targetBytes} bytes could not be met; the smallest result reached is returned.` });
  return { ...result, stats: { ...result.stats, target_bytes: targetBytes, target_met: met } };
}

/**
 * Scores every page, then escalates the images of failing pages and produces the
 * output again, rescoring only the pages that failed, until all pass or no image
 * there can be escalated. The quality check wins over a size target.
 */
async function verifyQuality(runs: OutputRuns, first: ProducedOutput, input: Uint8Array, password: string | null, threshold: number, stats: PdfCompressStats): Promise<ProducedOutput> {
  const scores = new Map<number, PageSsim>(measurePageSsims(input, first.bytes, password).map((score) => [score.page, score]));
  const overrides = new Map<number, ImageOverride>();
  let produced = first;
  let rounds = 0;
  while (rounds < VERIFY_MAX_ROUNDS) {
    const failing = new Set([...scores.values()].filter((score) => score.ssim < threshold).map((score) => score.page));
    if (failing.size === 0 || !escalateFailingImages(failing, produced.rewrites.stats, overrides)) break;
    produced = await runs.again(produced.targets, overrides);
    rounds++;
    for (const score of measurePageSsims(input, produced.bytes, password, [...failing])) scores.set(score.page, score);
  }
  stats.verify = summarizeVerify(threshold, [...scores.values()], produced.rewrites.stats, overrides, rounds);
  return produced;
}

/** Zopfli over the final output's Flate streams, kept only when the saved file comes out smaller. */
async function zopfliOutput(runs: OutputRuns, output: Uint8Array, stats: PdfCompressStats): Promise<Uint8Array> {
  let streams: RecompressStats = { streams_examined: 0, streams_recompressed: 0, streams_skipped: 0, bytes_saved: 0, cpu_ms: 0 };
  const recompressed = await runs.resave(output, async (doc) => {
    streams = await recompressFlateStreams(doc, "zopfli");
  });
  stats.zopfli = { ...streams, output_bytes_before: output.byteLength };
  return recompressed.byteLength < output.byteLength ? recompressed : output;
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
  } catch {
    return "it does not reopen";
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
