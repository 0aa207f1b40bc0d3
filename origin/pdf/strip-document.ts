// Removes what `strip` names. Link annotations and form widgets always stay, so
// navigation and forms survive even when annotations are stripped.
import type * as mupdf from "mupdf";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { catalogOf, forEachObject, nameOf, pageObjects } from "./pdf-objects.ts";

type StripOptions = PdfCompressOptions["strip"];

const KEPT_ANNOTATIONS = new Set(["Link", "Widget"]);

function deleteKey(dict: mupdf.PDFObject, key: string): void {
  if (dict.isDictionary()) dict.delete(key);
}

function isJavaScriptAction(action: mupdf.PDFObject): boolean {
  return action.isDictionary() && nameOf(action.get("S")) === "JavaScript";
}

function stripJavaScript(doc: mupdf.PDFDocument): void {
  const catalog = catalogOf(doc);
  deleteKey(catalog.get("Names"), "JavaScript");
  if (isJavaScriptAction(catalog.get("OpenAction"))) catalog.delete("OpenAction");
  forEachObject(doc, (_, value) => {
    if (!value.isDictionary()) return;
    value.delete("AA");
    if (isJavaScriptAction(value.get("A"))) value.delete("A");
    if (isJavaScriptAction(value.get("Next"))) value.delete("Next");
  });
}

function stripMetadata(doc: mupdf.PDFDocument): void {
  forEachObject(doc, (_, value) => {
    if (!value.isDictionary()) return;
    value.delete("Metadata");
    value.delete("PieceInfo");
  });
  // A new Info object, because some files point Info at another live object (the page tree).
  const trailer = doc.getTrailer();
  const title = trailer.get("Info", "Title");
  if (trailer.get("Info").isNull()) return;
  const info = doc.newDictionary();
  if (title.isString()) info.put("Title", title);
  trailer.put("Info", doc.addObject(info));
}

function forEachPage(doc: mupdf.PDFDocument, fn: (page: mupdf.PDFObject) => void): void {
  for (const page of pageObjects(doc)) fn(page);
}

function stripAnnotations(doc: mupdf.PDFDocument): void {
  forEachPage(doc, (page) => {
    const annots = page.get("Annots");
    if (!annots.isArray()) return;
    const kept = doc.newArray();
    annots.forEach((annot) => {
      if (KEPT_ANNOTATIONS.has(nameOf(annot.get("Subtype")) ?? "")) kept.push(annot);
    });
    page.put("Annots", kept);
  });
}

/**
 * LibreOffice's hybrid PDFs carry their editable source (an ODF package) under the trailer's
 * /AdditionalStreams. MuPDF writes a fresh trailer without that key, which would leave the
 * source in the output unreachable: dead bytes (390 kB of a 918 kB corpus file). It goes
 * whatever `strip` says, since no output of this writer could keep it usable.
 */
function dropHybridSource(doc: mupdf.PDFDocument): void {
  doc.getTrailer().delete("AdditionalStreams");
}

export function stripDocument(doc: mupdf.PDFDocument, strip: StripOptions): void {
  const catalog = catalogOf(doc);
  dropHybridSource(doc);
  if (strip.javascript) stripJavaScript(doc);
  if (strip.metadata) stripMetadata(doc);
  if (strip.thumbnails) forEachPage(doc, (page) => page.delete("Thumb"));
  if (strip.embedded_files) {
    deleteKey(catalog.get("Names"), "EmbeddedFiles");
    catalog.delete("AF");
  }
  if (strip.annotations) stripAnnotations(doc);
  if (strip.structure_tree) {
    catalog.delete("StructTreeRoot");
    catalog.delete("MarkInfo");
    forEachPage(doc, (page) => page.delete("StructParents"));
  }
}
