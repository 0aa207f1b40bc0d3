// The fonts of a document as a reader sees them: composite fonts are reported once,
// with their descendant's program; Type 3 fonts are embedded glyph procedures.
import type * as mupdf from "mupdf";
import { forEachObject, nameOf, rawStreamLength } from "./pdf-objects.ts";
import type { PdfFontReport } from "../../contracts/origin/pdf-analyze.ts";

export type FontInfo = PdfFontReport;

const FONT_FILE_KEYS = ["FontFile", "FontFile2", "FontFile3"];
const SUBSET_PREFIX = /^[A-Z]{6}\+/;

function programBytes(descriptor: mupdf.PDFObject): number | null {
  if (!descriptor.isDictionary()) return null;
  for (const key of FONT_FILE_KEYS) {
    const file = descriptor.get(key);
    if (file.isStream()) return rawStreamLength(file);
  }
  return null;
}

function type3Bytes(font: mupdf.PDFObject): number {
  let bytes = 0;
  const procs = font.get("CharProcs");
  if (procs.isDictionary()) procs.forEach((proc) => (bytes += proc.isStream() ? rawStreamLength(proc) : 0));
  return bytes;
}

export function listFonts(doc: mupdf.PDFDocument): FontInfo[] {
  const fonts: FontInfo[] = [];
  forEachObject(doc, (objectNumber, font) => {
    if (!font.isDictionary() || nameOf(font.get("Type")) !== "Font") return;
    const subtype = nameOf(font.get("Subtype")) ?? "unknown";
    if (subtype === "CIDFontType0" || subtype === "CIDFontType2") return;
    const descendantFont = font.get("DescendantFonts", 0);
    const descendant = subtype === "Type0" && descendantFont.isDictionary() ? descendantFont : null;
    const descriptor = (descendant ?? font).get("FontDescriptor");
    const name = nameOf(font.get("BaseFont")) ?? nameOf(font.get("Name")) ?? "";
    const bytes = subtype === "Type3" ? type3Bytes(font) : programBytes(descriptor);
    const type = descendant === null ? subtype : `Type0/${nameOf(descendant.get("Subtype")) ?? "unknown"}`;
    fonts.push({ object_number: objectNumber, name, type, embedded: subtype === "Type3" || bytes !== null, subset: SUBSET_PREFIX.test(name), bytes: bytes ?? 0 });
  });
  return fonts;
}
