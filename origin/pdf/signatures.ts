// Signature fields that actually carry a signature (a /V dictionary with /ByteRange).
import type * as mupdf from "mupdf";
import { catalogOf, nameOf } from "./pdf-objects.ts";

const MAX_FIELD_DEPTH = 32;

function fieldName(field: mupdf.PDFObject, parentName: string): string {
  const partial = field.get("T");
  if (!partial.isString()) return parentName;
  return parentName === "" ? partial.asString() : `${parentName}.${partial.asString()}`;
}

/** Walks the AcroForm field tree; fn gets each field with its full name and inherited type. */
export function forEachFormField(doc: mupdf.PDFDocument, fn: (field: mupdf.PDFObject, name: string, type: string | null) => void): void {
  const seen = new Set<number>();
  const walk = (field: mupdf.PDFObject, parentName: string, parentType: string | null, depth: number) => {
    if (depth > MAX_FIELD_DEPTH) return;
    if (field.isIndirect()) {
      if (seen.has(field.asIndirect())) return;
      seen.add(field.asIndirect());
    }
    const name = fieldName(field, parentName);
    const type = nameOf(field.get("FT")) ?? parentType;
    fn(field, name, type);
    const kids = field.get("Kids");
    if (kids.isArray()) kids.forEach((kid) => walk(kid, name, type, depth + 1));
  };
  const fields = catalogOf(doc).get("AcroForm", "Fields");
  if (fields.isArray()) fields.forEach((field) => walk(field, "", null, 0));
}

export function signedFieldNames(doc: mupdf.PDFDocument): string[] {
  const names: string[] = [];
  forEachFormField(doc, (field, name, type) => {
    const value = field.get("V");
    if (type === "Sig" && value.isDictionary() && value.get("ByteRange").isArray()) names.push(name);
  });
  return names;
}
