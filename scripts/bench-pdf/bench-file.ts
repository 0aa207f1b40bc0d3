// One corpus file through every tool: output size and time, then the soundness checks
// (page count, form fields, qpdf --check), the render comparison against the input and, for
// ours, the SSIMULACRA 2 floor check of the pages it rewrote. The checks run after every tool
// has run, so no tool's time shares the machine with them.
import * as mupdf from "mupdf";
import { PDF_PROFILE_PARAMETERS } from "../../contracts/pdf-options.ts";
import type { PerceptualScorePool } from "../../origin/quality/perceptual-score.ts";
import { compareRenders, SSIM_TARGET } from "./compare-renders.ts";
import type { RenderScore } from "./compare-renders.ts";
import type { CorpusFile } from "./corpus.ts";
import { floorScores } from "./floor-scores.ts";
import type { FloorScores } from "./floor-scores.ts";
import { formFieldNames, pageCount, qpdfCheck } from "./inspect-output.ts";
import { pagesBelowSupersampled } from "./supersampled-ssim.ts";
import type { QpdfCheck } from "./inspect-output.ts";
import { TOOLS, outputPathFor } from "./tools.ts";
import type { ToolRun } from "./tools.ts";

export type FormKept = "yes" | "no" | "no form" | "unknown";

export interface ToolOutcome {
  tool: string;
  run: ToolRun;
  /** Bytes the caller ends up with: the output, or the input when the tool refused or produced nothing. */
  outputBytes: number;
  broken: boolean;
  pagesKept: boolean;
  formKept: FormKept;
  check: QpdfCheck | null;
  /** Null when the tool refused (the caller keeps the input) or the input renders no page. */
  minSsim: number | null;
  pagesBelowTarget: number;
  /** Of those, the pages still below it when both documents are rendered at 4x and averaged down. */
  pagesBelowSupersampled: number;
  pagesNotComparable: number;
  /** Ours only: its rewritten pages scored against the profile's floor; null for the others, or when nothing was rewritten. */
  floor: FloorScores | null;
}

export interface FileBench {
  file: CorpusFile;
  pages: number;
  renderedPages: number;
  outcomes: ToolOutcome[];
  /** MuPDF's render of the input against pdftoppm's: the two renderers' own disagreement. */
  inputByMupdf: RenderScore;
  /** Wall time of the checks after the tools ran (soundness, renders, scores). */
  checksMs: number;
}

export type FileResult = FileBench | { file: CorpusFile; skipped: string };

function needsUnknownPassword(file: CorpusFile): boolean {
  if (file.password !== null) return false;
  try {
    const doc = mupdf.Document.openDocument(file.bytes, "application/pdf");
    const needs = doc.needsPassword();
    doc.destroy();
    return needs;
  } catch {
    return false;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

function formKept(before: string[] | null, after: string[] | null): FormKept {
  if (before === null) return "unknown";
  if (before.length === 0) return "no form";
  return after !== null && after.join("\n") === before.join("\n") ? "yes" : "no";
}

/** The floor ours was run with (TOOLS[0] is ours ebook). */
export const OURS_FLOOR = PDF_PROFILE_PARAMETERS.ebook.perceptualFloor;

export async function benchFile(file: CorpusFile, workDir: string, maxRenderedPages: number, scorePool: PerceptualScorePool): Promise<FileResult> {
  if (needsUnknownPassword(file)) return { file, skipped: "encrypted and neither the provenance nor the tests know its password" };
  const pages = await pageCount(file.path, file.password);
  if (pages === null) return { file, skipped: "poppler cannot read the input, so there is no reference render" };
  const inputFields = formFieldNames(file.bytes, file.password);
  const renderedPages = Math.min(pages, maxRenderedPages);
  const outcomes: ToolOutcome[] = [];
  let checksMs = 0;
  for (const [index, tool] of TOOLS.entries()) {
    const outputPath = outputPathFor(workDir, index);
    const run = await tool.run(file, outputPath);
    const checksStarted = performance.now();
    const outputPages = run.bytes === null ? null : await pageCount(outputPath, file.password);
    const pagesKept = run.refused || outputPages === pages;
    outcomes.push({
      tool: tool.name,
      run,
      outputBytes: run.bytes?.byteLength ?? file.bytes.byteLength,
      broken: !run.refused && !pagesKept,
      pagesKept,
      formKept: run.refused ? formKept(inputFields, inputFields) : formKept(inputFields, run.bytes === null ? null : formFieldNames(run.bytes, file.password)),
      check: run.bytes === null ? null : await qpdfCheck(outputPath, file.password),
      minSsim: run.refused ? null : 0,
      pagesBelowTarget: run.refused ? 0 : renderedPages,
      pagesBelowSupersampled: run.refused ? 0 : renderedPages,
      pagesNotComparable: 0,
      floor: null,
    });
    checksMs += performance.now() - checksStarted;
  }
  // Another engineer's work can slow any one run several times over (one corpus run timed the
  // same compress of geotopo at 49 s and, a minute later, 12 s): ours and Ghostscript run a second time, in
  // turn, and each keeps its faster time. The second output is only timed.
  for (const [index, tool] of TOOLS.entries()) {
    if (!tool.timedTwice) continue;
    const again = await tool.run(file, `${outputPathFor(workDir, index)}.again`);
    const outcome = outcomes[index]!;
    outcome.run = { ...outcome.run, ms: Math.min(outcome.run.ms, again.ms) };
  }
  const checksStarted = performance.now();
  // Outputs equal to the input score 1; outputs equal to each other (auto resolves to
  // ebook without an intent) are rendered once and share their score.
  const groups: { path: string; bytes: Uint8Array; members: ToolOutcome[] }[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    const bytes = outcome.run.bytes;
    if (bytes === null || outcome.broken) continue;
    if (sameBytes(bytes, file.bytes)) {
      Object.assign(outcome, { minSsim: 1, pagesBelowTarget: 0, pagesBelowSupersampled: 0 });
      continue;
    }
    const group = groups.find((candidate) => sameBytes(candidate.bytes, bytes));
    if (group === undefined) groups.push({ path: outputPathFor(workDir, index), bytes, members: [outcome] });
    else group.members.push(outcome);
  }
  const ours = outcomes[0]!;
  const floorPages = ours.run.rewrittenPages.filter((page) => page <= renderedPages);
  const checkFloor = ours.run.bytes !== null && !ours.broken && floorPages.length > 0;
  // The floor check's scores run on worker threads beside the SSIM comparison on this one.
  const [scores, floor] = await Promise.all([
    compareRenders(file.path, file.bytes, groups.map((group) => group.path), file.password, renderedPages, workDir),
    checkFloor ? floorScores(file.path, outputPathFor(workDir, 0), file.password, floorPages, OURS_FLOOR, workDir, scorePool) : null,
  ]);
  ours.floor = floor;
  for (const [index, group] of groups.entries()) {
    const { lowPages, ...score } = scores.outputs[index]!;
    const supersampled = score.pagesBelowTarget - lowPages.length + (await pagesBelowSupersampled(file.path, group.path, file.password, lowPages, SSIM_TARGET, workDir));
    for (const outcome of group.members) Object.assign(outcome, score, { pagesBelowSupersampled: supersampled });
  }
  return { file, pages, renderedPages, outcomes, inputByMupdf: scores.inputByMupdf, checksMs: checksMs + performance.now() - checksStarted };
}
