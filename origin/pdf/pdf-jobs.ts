// The jobs a PDF worker thread runs, and how their outcomes cross the thread
// boundary: results as plain data, problems as their slug and detail.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { ProblemType } from "../../contracts/problems/catalogue.ts";
import type { PdfAnalyzeOptions, PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { analyzePdf } from "./analyze-pdf.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import { compressPdf } from "./compress-pdf.ts";
import type { PdfCompressResult } from "./compress-pdf.ts";

export type PdfJob = { kind: "analyze"; input: Uint8Array; options: PdfAnalyzeOptions } | { kind: "compress"; input: Uint8Array; options: PdfCompressOptions };

export type PdfJobOutcome =
  | { ok: true; result: PdfAnalysis | PdfCompressResult }
  | { ok: false; problem: { slug: ProblemType; detail: string; status: number; extensions: Record<string, unknown> } }
  | { ok: false; error: string };

export async function runPdfJob(job: PdfJob): Promise<PdfJobOutcome> {
  try {
    const result = job.kind === "analyze" ? await analyzePdf(job.input, job.options) : await compressPdf(job.input, job.options);
    return { ok: true, result };
  } catch (error) {
    if (error instanceof ProblemError) {
      return { ok: false, problem: { slug: error.slug, detail: error.message, status: error.status, extensions: error.extensions } };
    }
    return { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

export function outcomeToResult(outcome: PdfJobOutcome): PdfAnalysis | PdfCompressResult {
  if (outcome.ok) return outcome.result;
  if ("problem" in outcome) {
    throw new ProblemError(outcome.problem.slug, outcome.problem.detail, { status: outcome.problem.status, extensions: outcome.problem.extensions });
  }
  throw new Error(`PDF worker job failed: ${outcome.error}`);
}
