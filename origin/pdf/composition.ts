// Where the bytes of a file go: every stream is put in one category by what
// references it or what it declares itself to be; the rest (dictionaries, xref,
// object streams) is "other", so the categories add up to the file size.
import type * as mupdf from "mupdf";
import { forEachObject, nameOf, rawStreamLength } from "./pdf-objects.ts";
import type { PdfBytesByCategory } from "../../contracts/origin/pdf-compress.ts";

export type BytesByCategory = PdfBytesByCategory;

type Category = Exclude<keyof BytesByCategory, "other">;

const FONT_STREAM_KEYS = ["FontFile", "FontFile2", "FontFile3", "ToUnicode", "CIDSet", "CIDToGIDMap"];

function addRef(target: Map<number, Category>, value: mupdf.PDFObject, category: Category): void {
  if (value.isIndirect()) target.set(value.asIndirect(), category);
  else if (value.isArray()) value.forEach((item) => addRef(target, item, category));
}

export function measureComposition(doc: mupdf.PDFDocument, fileBytes: number): BytesByCategory {
  const referenced = new Map<number, Category>();
  forEachObject(doc, (_, value) => {
    if (!value.isDictionary()) return;
    const type = nameOf(value.get("Type"));
    if (type === "Page") {
      addRef(referenced, value.get("Contents"), "content_streams");
      addRef(referenced, value.get("Thumb"), "thumbnails");
    }
    if (type === "FontDescriptor" || type === "Font") for (const key of FONT_STREAM_KEYS) addRef(referenced, value.get(key), "fonts");
    const charProcs = value.get("CharProcs");
    if (type === "Font" && charProcs.isDictionary()) charProcs.forEach((proc) => addRef(referenced, proc, "content_streams"));
  });
  const totals: BytesByCategory = { images: 0, fonts: 0, content_streams: 0, metadata: 0, embedded_files: 0, thumbnails: 0, other: 0 };
  forEachObject(doc, (objectNumber, value) => {
    if (!value.isStream()) return;
    const category = referenced.get(objectNumber) ?? ownCategory(value);
    if (category !== null) totals[category] += rawStreamLength(value);
  });
  const categorised = totals.images + totals.fonts + totals.content_streams + totals.metadata + totals.embedded_files + totals.thumbnails;
  totals.other = Math.max(0, fileBytes - categorised);
  return totals;
}

function ownCategory(value: mupdf.PDFObject): Category | null {
  const type = nameOf(value.get("Type"));
  const subtype = nameOf(value.get("Subtype"));
  if (subtype === "Image") return "images";
  if (subtype === "Form" || !value.get("PatternType").isNull()) return "content_streams";
  if (type === "Metadata") return "metadata";
  if (type === "EmbeddedFile") return "embedded_files";
  return null;
}
