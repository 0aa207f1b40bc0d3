// The jobs a PDF worker thread runs, and how their outcomes cross the thread boundary
// (worker-pool/job-outcome.ts): results as plain data, problems as their slug and detail.
import type { PdfAnalyzeOptions, PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { outcomeOf, type JobOutcome } from "../worker-pool/job-outcome.ts";
import { analyzePdf } from "./analyze-pdf.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import { compressPdf } from "./compress-pdf.ts";
import type { PdfCompressResult } from "./compress-pdf.ts";
import { drawPdfPage, type DrawnPage, type PageRequest } from "./draw-page.ts";

export type PdfJob =
  | { kind: "analyze"; input: Uint8Array; options: PdfAnalyzeOptions }
  | { kind: "compress"; input: Uint8Array; options: PdfCompressOptions }
  | { kind: "page"; input: Uint8Array; options: PageRequest };

export type PdfJobResult = PdfAnalysis | PdfCompressResult | DrawnPage;

export type PdfJobOutcome = JobOutcome<PdfJobResult>;

function run(job: PdfJob): PdfJobResult | Promise<PdfJobResult> {
  switch (job.kind) {
    case "analyze":
      return analyzePdf(job.input, job.options);
    case "compress":
      return compressPdf(job.input, job.options);
    case "page":
      return drawPdfPage(job.input, job.options);
  }
}

export function runPdfJob(job: PdfJob): Promise<PdfJobOutcome> {
  return outcomeOf(() => run(job));
}
