// Our compress again with the advanced options of issue 7, one run per option per corpus file,
// each reported by what its stats say it did. A new option is one more entry in OPTION_RUNS:
// its options for a file and the cells it prints.
import * as mupdf from "mupdf";
import type { PdfCompressResult } from "../../origin/pdf/compress-pdf.ts";
import { inspectImages } from "../../origin/pdf/image-facts.ts";
import { filtersOf, forEachObject, nameOf, rawStreamLength } from "../../origin/pdf/pdf-objects.ts";
import { PDF_BYTES_PER_MB } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import type { FileBench } from "./bench-file.ts";
import { bytes, fixed } from "./print-table.ts";
import type { Column } from "./print-table.ts";
import { runOurs } from "./tools.ts";

export interface OptionRun {
  name: string;
  /** What the run is measured against, printed above the table. */
  description: string;
  /** The options for this file, or why the run is skipped for it. */
  optionsFor(file: FileBench): PdfCompressOptionsInput | { skip: string };
  columns: Column[];
  cells(result: PdfCompressResult, file: FileBench): string[];
  /** What the summary line counts: the file met the option's goal. */
  goal: string;
  met(result: PdfCompressResult, file: FileBench): boolean;
}

/** The size target asked of each file: this share of our own ebook output. */
const SIZE_TARGET_SHARE_OF_EBOOK = 0.5;
/**
 * verify_quality renders every page twice at 100 dpi and may encode twice more: on the long
 * books that alone takes minutes on the two-core machine, so they are left out and the output says so.
 */
const VERIFY_MAX_PAGES = 40;

const ebookBytesOf = (file: FileBench) => file.outcomes[0]!.outputBytes;

const sizeTarget: OptionRun = {
  name: "max_size_mb",
  description: `profile ebook with max_size_mb = ${SIZE_TARGET_SHARE_OF_EBOOK} x our ebook output`,
  optionsFor(file) {
    if (file.outcomes[0]!.run.refused) return { skip: "ebook refused the input" };
    return { profile: "ebook", max_size_mb: (ebookBytesOf(file) * SIZE_TARGET_SHARE_OF_EBOOK) / PDF_BYTES_PER_MB };
  },
  columns: [
    { header: "images", width: 6 },
    { header: "target", width: 11 },
    { header: "out bytes", width: 11 },
    { header: "met", width: 3 },
    { header: "quality", width: 7 },
    { header: "res", width: 5 },
    { header: "encodes", width: 7 },
    { header: "saves", width: 5 },
  ],
  cells(result) {
    const { stats } = result;
    const search = stats.target_search;
    return [
      String(stats.images.length),
      bytes(stats.target_bytes ?? 0),
      bytes(stats.output_bytes),
      stats.target_met === undefined ? "-" : stats.target_met ? "yes" : "no",
      search === undefined ? "-" : String(search.quality),
      search === undefined ? "-" : fixed(search.resolution_scale, 2),
      search === undefined ? "-" : String(search.encodes),
      search === undefined ? "-" : String(search.saves),
    ];
  },
  goal: "target met",
  met: (result) => result.stats.target_met === true,
};

const verifyQuality: OptionRun = {
  name: "verify_quality",
  description: `profile ebook with verify_quality (files of up to ${VERIFY_MAX_PAGES} pages)`,
  optionsFor(file) {
    if (file.outcomes[0]!.run.refused) return { skip: "ebook refused the input" };
    if (file.pages > VERIFY_MAX_PAGES) return { skip: `${file.pages} pages, above the bench's ${VERIFY_MAX_PAGES}-page limit for this run` };
    return { profile: "ebook", verify_quality: true };
  },
  columns: [
    { header: "out bytes", width: 11 },
    { header: "passing", width: 9 },
    { header: "min SSIM", width: 8 },
    { header: "raised", width: 6 },
    { header: "restored", width: 8 },
    { header: "rounds", width: 6 },
  ],
  cells(result) {
    const { stats } = result;
    const verify = stats.verify;
    if (verify === undefined) return [bytes(stats.output_bytes), "-", "-", "-", "-", "-"];
    const passing = verify.pages.filter((page) => page.ssim >= verify.threshold).length;
    return [
      bytes(stats.output_bytes),
      `${passing}/${verify.pages.length}`,
      fixed(verify.min_ssim, 4),
      String(verify.images_requality),
      String(verify.images_restored),
      String(verify.rounds),
    ];
  },
  goal: "every page at or above the SSIM threshold (or the original returned)",
  met: (result) => result.returned_original || (result.stats.verify?.pages.every((page) => page.ssim >= result.stats.verify!.threshold) ?? false),
};

/** The bar for JBIG2: at most this share of the CCITT G4 bytes Ghostscript writes for the same images. */
const JBIG2_TARGET_SHARE_OF_G4 = 0.7;

function hasBilevelImages(file: FileBench): boolean {
  const doc = mupdf.Document.openDocument(file.file.bytes, "application/pdf").asPDF();
  if (doc === null) return false;
  try {
    if (file.file.password !== null) doc.authenticatePassword(file.file.password);
    return [...inspectImages(doc).values()].some((image) => image.isStencilMask || image.bitsPerComponent === 1);
  } catch {
    return false;
  } finally {
    doc.destroy();
  }
}

/** Bytes of the CCITT-encoded images in Ghostscript's /ebook output of the file, or null without any. */
function ghostscriptG4Bytes(file: FileBench): number | null {
  const output = file.outcomes.find((outcome) => outcome.tool.startsWith("gs"))?.run.bytes;
  if (output === null || output === undefined) return null;
  const doc = mupdf.Document.openDocument(output, "application/pdf").asPDF();
  if (doc === null) return null;
  let total = 0;
  forEachObject(doc, (_, ref) => {
    if (ref.isStream() && nameOf(ref.get("Subtype")) === "Image" && filtersOf(ref).includes("CCITTFaxDecode")) total += rawStreamLength(ref);
  });
  doc.destroy();
  return total > 0 ? total : null;
}

const jbig2: OptionRun = {
  name: "jbig2",
  description: `profile ebook (jbig2: auto, the default) on files with 1-bit images, against the CCITT G4 bytes of Ghostscript's /ebook output (target: at most ${JBIG2_TARGET_SHARE_OF_G4} of them)`,
  optionsFor(file) {
    if (file.outcomes[0]!.run.refused) return { skip: "ebook refused the input" };
    if (!hasBilevelImages(file)) return { skip: "no 1-bit images" };
    return { profile: "ebook", jbig2: "auto" };
  },
  columns: [
    { header: "images", width: 6 },
    { header: "before", width: 11 },
    { header: "JBIG2", width: 11 },
    { header: "symbols", width: 7 },
    { header: "gs G4", width: 11 },
    { header: "vs G4", width: 6 },
    { header: "cpu ms", width: 7 },
  ],
  cells(result, file) {
    const stats = result.stats.jbig2;
    const g4 = ghostscriptG4Bytes(file);
    if (stats === undefined) return ["0", "-", "-", "-", g4 === null ? "-" : bytes(g4), "-", "-"];
    return [
      String(stats.images_converted),
      bytes(stats.bytes_before),
      bytes(stats.bytes_after),
      String(stats.symbols),
      g4 === null ? "-" : bytes(g4),
      g4 === null ? "-" : fixed(stats.bytes_after / g4, 3),
      String(stats.cpu_ms),
    ];
  },
  goal: `JBIG2 at most ${JBIG2_TARGET_SHARE_OF_G4} of Ghostscript's G4`,
  met(result, file) {
    const g4 = ghostscriptG4Bytes(file);
    const after = result.stats.jbig2?.bytes_after;
    return g4 !== null && after !== undefined && after > 0 && after <= g4 * JBIG2_TARGET_SHARE_OF_G4;
  },
};

export const OPTION_RUNS: OptionRun[] = [sizeTarget, verifyQuality, jbig2];

export interface OptionOutcome {
  run: OptionRun;
  /** Null when the run was skipped or refused: the note says which. */
  cells: string[] | null;
  met: boolean;
  ms: number;
  note: string;
}

/** Every option run on one corpus file, after its tool runs. */
export async function runOptions(file: FileBench): Promise<OptionOutcome[]> {
  const outcomes: OptionOutcome[] = [];
  for (const run of OPTION_RUNS) {
    const options = run.optionsFor(file);
    if ("skip" in options) {
      outcomes.push({ run, cells: null, met: false, ms: 0, note: `skipped: ${options.skip}` });
      continue;
    }
    const ours = await runOurs(file.file, options);
    if ("refusal" in ours) {
      outcomes.push({ run, cells: null, met: false, ms: ours.ms, note: ours.refusal });
      continue;
    }
    const note = ours.result.returned_original ? `returned original: ${ours.result.warnings.map((warning) => warning.code).join("; ")}` : "";
    outcomes.push({ run, cells: run.cells(ours.result, file), met: run.met(ours.result, file), ms: ours.ms, note });
  }
  return outcomes;
}
