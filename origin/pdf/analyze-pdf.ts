// The analyze engine: what a PDF is made of, what protects it, every image with
// its effective resolution, every font, and what each profile would make of it.
import type * as mupdf from "mupdf";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfAnalyzeOptions, PdfFixedProfile } from "../../contracts/pdf-options.ts";
import { measureComposition } from "./composition.ts";
import type { BytesByCategory } from "./composition.ts";
import { readDocumentFlags } from "./document-flags.ts";
import type { DocumentFlags } from "./document-flags.ts";
import { listFonts } from "./fonts.ts";
import type { FontInfo } from "./fonts.ts";
import { inspectImages } from "./image-facts.ts";
import type { ImageFacts } from "./image-facts.ts";
import type { ColorSpaceInfo } from "./image-inventory.ts";
import { openPdf, readOrUnreadable, readOrUnreadableAsync } from "./open-pdf.ts";
import { projectProfiles } from "./projection.ts";
import { recompressFlateStreams } from "./recompress-flate.ts";
import type { ProfileProjection, StructureSize } from "./projection.ts";
import { saveOptions } from "./save-options.ts";
import { stripDocument } from "./strip-document.ts";

export interface PdfImageReport {
  object_number: number;
  pages: number[];
  width: number;
  height: number;
  bits_per_component: number;
  colour_space: ColorSpaceInfo;
  filters: string[];
  bytes: number;
  soft_mask: { object_number: number; width: number; height: number; bytes: number } | null;
  stencil_mask: boolean;
  placed_size_pt: { width: number; height: number } | null;
  effective_dpi: number | null;
  estimated_jpeg_quality: { quality: number; encoder: "ijg" | "mozjpeg" } | null;
}

export interface PdfAnalysis {
  composition: {
    pages: number;
    page_sizes_pt: { width: number; height: number }[];
    bytes: BytesByCategory;
    total_bytes: number;
    object_count: number;
    version: string;
    producer: string | null;
  };
  flags: DocumentFlags;
  images: PdfImageReport[];
  fonts: FontInfo[];
  projection: Record<PdfFixedProfile, ProfileProjection>;
}

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
    colour_space: image.colorSpace,
    filters: image.filters,
    bytes: image.bytes,
    soft_mask: mask === undefined ? null : { object_number: mask.objectNumber, width: mask.width, height: mask.height, bytes: mask.bytes },
    stencil_mask: image.isStencilMask,
    placed_size_pt: image.placement === null ? null : { width: image.placement.placedWidthPt, height: image.placement.placedHeightPt },
    effective_dpi: image.placement?.minDpi ?? null,
    estimated_jpeg_quality: image.jpegQuality === null ? null : { quality: image.jpegQuality.quality, encoder: image.jpegQuality.encoder },
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
  const saved = doc.saveToBuffer(saveOptions(defaults, encrypted));
  try {
    return { bytes: saved.getLength(), flateSavedByObject };
  } finally {
    saved.destroy();
  }
}

export async function analyzePdf(input: Uint8Array, options: PdfAnalyzeOptions): Promise<PdfAnalysis> {
  const { doc, encrypted } = openPdf(input, options.password);
  try {
    const images = readOrUnreadable("reading its images", () => inspectImages(doc));
    const version = doc.getVersion();
    const analysis: Omit<PdfAnalysis, "projection"> = readOrUnreadable("reading its structure", () => ({
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
