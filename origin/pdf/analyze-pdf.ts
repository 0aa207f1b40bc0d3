// The analyze engine: what a PDF is made of, what protects it, every image with
// its effective resolution, every font, and what each profile would make of it.
import type * as mupdf from "mupdf";
import { PDF_ANALYZE_MAX_PLACEMENT_RECTS } from "../../contracts/limits/pdf.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfAnalyzeOptions } from "../../contracts/pdf-options.ts";
import type { PdfAnalyzeReply, PdfImageReport } from "../../contracts/origin/pdf-analyze.ts";
import { measureComposition } from "./composition.ts";
import { readDocumentFlags } from "./document-flags.ts";
import { listFonts } from "./fonts.ts";
import { inspectImages } from "./image-facts.ts";
import type { ImageFacts } from "./image-facts.ts";
import { openPdf, readOrUnreadable, readOrUnreadableAsync } from "./open-pdf.ts";
import { projectProfiles } from "./projection.ts";
import { recompressFlateStreams } from "./recompress-flate.ts";
import type { StructureSize } from "./projection.ts";
import { saveOptions } from "./save-options.ts";
import { stripDocument } from "./strip-document.ts";

/** The analysis is the contract's reply as it is: the edge adds only billing. */
export type PdfAnalysis = PdfAnalyzeReply;

function pageSizes(doc: mupdf.PDFDocument): { width: number; height: number }[] {
  const sizes: { width: number; height: number }[] = [];
  const count = doc.countPages();
  for (let index = 0; index < count; index++) {
    const page = doc.loadPage(index);
    const [x0, y0, x1, y1] = page.getBounds();
    sizes.push({ width: x1 - x0, height: y1 - y0 });
    page.destroy();
  }
  return sizes;
}

function imageReport(image: ImageFacts, images: Map<number, ImageFacts>): PdfImageReport {
  const mask = image.softMask === null ? undefined : images.get(image.softMask);
  return {
    object_number: image.objectNumber,
    pages: image.placement?.pages ?? [],
    width: image.width,
    height: image.height,
    bits_per_component: image.bitsPerComponent,
    colorspace: image.colorSpace,
    filters: image.filters,
    bytes: image.bytes,
    soft_mask: mask === undefined ? null : { object_number: mask.objectNumber, width: mask.width, height: mask.height, bytes: mask.bytes },
    stencil_mask: image.isStencilMask,
    placed_size_pt: image.placement === null ? null : { width: image.placement.placedWidthPt, height: image.placement.placedHeightPt },
    effective_dpi: image.placement?.minDpi ?? null,
    placement_count: image.placement?.placements ?? 0,
    placements: (image.placement?.rects ?? []).map(({ page, dpi, ...rect }) => ({ page, rect_pt: rect, effective_dpi: dpi })),
    estimated_jpeg_quality: image.jpegQuality?.quality ?? null,
    estimated_jpeg_encoder: image.jpegQuality?.encoder ?? null,
  };
}

/** Saves the document as compress would with default options but untouched images: its size, and what zlib's best level saved per stream. */
async function measureStructure(doc: mupdf.PDFDocument, encrypted: boolean): Promise<StructureSize> {
  const defaults = pdfCompressOptionsSchema.parse({});
  stripDocument(doc, defaults.strip);
  try {
    doc.subsetFonts();
  } catch {
    // A font mupdf cannot subset stays whole in compress as well.
  }
  const flateSavedByObject = new Map<number, number>();
  await recompressFlateStreams(doc, "zlib", new Map(), flateSavedByObject);
  const saved = doc.saveToBuffer(saveOptions(defaults, encrypted, doc.countObjects()));
  try {
    return { bytes: saved.getLength(), flateSavedByObject };
  } finally {
    saved.destroy();
  }
}

export async function analyzePdf(input: Uint8Array, options: PdfAnalyzeOptions): Promise<PdfAnalysis> {
  const { doc, encrypted } = openPdf(input, options.password);
  try {
    const images = readOrUnreadable("reading its images", () => inspectImages(doc, PDF_ANALYZE_MAX_PLACEMENT_RECTS));
    const version = doc.getVersion();
    const analysis: Omit<PdfAnalysis, "projection"> = readOrUnreadable("reading its structure", () => ({
      stats: { original_bytes: input.byteLength },
      composition: {
        pages: doc.countPages(),
        page_sizes_pt: pageSizes(doc),
        bytes: measureComposition(doc, input.byteLength),
        total_bytes: input.byteLength,
        object_count: doc.countObjects() - 1,
        version: `${Math.floor(version / 10)}.${version % 10}`,
        producer: doc.getMetaData("info:Producer") ?? null,
      },
      flags: readDocumentFlags(doc, input),
      images: [...images.values()].filter((image) => image.softMaskOf.length === 0).map((image) => imageReport(image, images)),
      fonts: listFonts(doc),
    }));
    const projection = await projectProfiles(doc, images, input.byteLength, () => readOrUnreadableAsync("saving it", () => measureStructure(doc, encrypted)));
    return { ...analysis, projection };
  } finally {
    doc.destroy();
  }
}
