// The compressors the bench compares. Ours runs in-process on the engine; the others are
// the Debian ghostscript and qpdf binaries. Every run reports wall time. Profile auto
// without an intent resolves to ebook's targets (origin/pdf/profiles.ts), so it is not run
// a second time.
import fs from "node:fs";
import path from "node:path";
import { compressPdf } from "../../origin/pdf/compress-pdf.ts";
import type { PdfCompressResult } from "../../origin/pdf/compress-pdf.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { CorpusFile } from "./corpus.ts";
import { runCommand } from "./run-command.ts";

export interface ToolRun {
  /** The output, or null when the tool produced none. */
  bytes: Uint8Array | null;
  ms: number;
  /** Why there is no output, or what the tool reported while producing one. */
  note: string | null;
  /** True when the tool refused the input as a 4xx problem (the caller keeps the original). */
  refused: boolean;
  /** Pages (1-based) holding an image the output rewrote, as ours reports them; empty for the others. */
  rewrittenPages: number[];
}

export interface Tool {
  name: string;
  run(file: CorpusFile, outputPath: string): Promise<ToolRun>;
  /** Timed again after every tool has run once, keeping the faster time: the compared pair, on a shared machine. */
  timedTwice: boolean;
}

export type OursRun = { result: PdfCompressResult; ms: number } | { refusal: string; ms: number };

/** Our compress in-process, as the bench runs it: a 4xx problem is a refusal, anything else throws. */
export async function runOurs(file: CorpusFile, options: PdfCompressOptionsInput): Promise<OursRun> {
  // The corpus holds signed and PDF/A samples; the bench measures what breaking them would give.
  const parsed = pdfCompressOptionsSchema.parse({ ...options, password: file.password, allow_signature_break: true, allow_conformance_break: true });
  const started = performance.now();
  try {
    const result = await compressPdf(file.bytes, parsed);
    return { result, ms: performance.now() - started };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return { refusal: `refused ${error.slug}: ${error.message}`, ms: performance.now() - started };
  }
}

function rewrittenPagesOf(result: PdfCompressResult): number[] {
  const pages = new Set(result.stats.images.filter((image) => image.after !== null).flatMap((image) => image.pages));
  return [...pages].sort((a, b) => a - b);
}

function ours(profile: "ebook"): Tool {
  return {
    name: `ours ${profile}`,
    timedTwice: true,
    async run(file, outputPath) {
      const run = await runOurs(file, { profile });
      if ("refusal" in run) return { bytes: null, ms: run.ms, note: run.refusal, refused: true, rewrittenPages: [] };
      fs.writeFileSync(outputPath, run.result.bytes);
      const note = run.result.returned_original ? `returned original: ${run.result.warnings.map((warning) => warning.code).join("; ")}` : null;
      return { bytes: run.result.bytes, ms: run.ms, note, refused: false, rewrittenPages: rewrittenPagesOf(run.result) };
    },
  };
}

async function external(command: string, args: string[], outputPath: string): Promise<ToolRun> {
  fs.rmSync(outputPath, { force: true });
  const result = await runCommand(command, args);
  const produced = fs.existsSync(outputPath) && fs.statSync(outputPath).size > 0;
  const message = (result.stderr || result.stdout).trim().split("\n").slice(-1)[0] ?? "";
  const note = result.code === 0 ? null : `exit ${result.code}${message ? `: ${message}` : ""}`;
  return { bytes: produced ? new Uint8Array(fs.readFileSync(outputPath)) : null, ms: result.ms, note, refused: false, rewrittenPages: [] };
}

const ghostscriptEbook: Tool = {
  name: "gs /ebook",
  timedTwice: true,
  run(file, outputPath) {
    const password = file.password === null ? [] : [`-sPDFPassword=${file.password}`];
    const args = ["-q", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/ebook", "-dNOPAUSE", "-dBATCH", "-dSAFER", ...password, `-sOutputFile=${outputPath}`, file.path];
    return external("gs", args, outputPath);
  },
};

const qpdfOptimize: Tool = {
  name: "qpdf",
  timedTwice: false,
  run(file, outputPath) {
    const password = file.password === null ? [] : [`--password=${file.password}`];
    return external("qpdf", [...password, "--optimize-images", "--object-streams=generate", file.path, outputPath], outputPath);
  },
};

export const TOOLS: Tool[] = [ours("ebook"), ghostscriptEbook, qpdfOptimize];

export function outputPathFor(workDir: string, toolIndex: number): string {
  return path.join(workDir, `tool${toolIndex}.pdf`);
}
