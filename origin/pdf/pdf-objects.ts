// Small readers over mupdf's PDFObject that tolerate missing and malformed values,
// because the engine walks untrusted files.
import type * as mupdf from "mupdf";

export function nameOf(obj: mupdf.PDFObject): string | null {
  return obj.isName() ? obj.asName() : null;
}

export function numberOf(obj: mupdf.PDFObject): number | null {
  return obj.isNumber() ? obj.asNumber() : null;
}

/** The filter names of a stream dictionary, in decoding order. */
export function filtersOf(dict: mupdf.PDFObject): string[] {
  const filter = dict.get("Filter");
  if (filter.isName()) return [filter.asName()];
  if (!filter.isArray()) return [];
  const names: string[] = [];
  filter.forEach((item) => {
    if (item.isName()) names.push(item.asName());
  });
  return names;
}

/**
 * Calls fn with every object number and an indirect reference to it. Readers go
 * through the reference (mupdf resolves it in C): PDFObject.resolve() in mupdf.js
 * 1.28 makes a later garbage-collecting save drop the stream data of stream objects.
 */
export function forEachObject(doc: mupdf.PDFDocument, fn: (objectNumber: number, ref: mupdf.PDFObject) => void): void {
  const count = doc.countObjects();
  for (let objectNumber = 1; objectNumber < count; objectNumber++) {
    const ref = doc.newIndirect(objectNumber);
    try {
      fn(objectNumber, ref);
    } finally {
      ref.destroy();
    }
  }
}

/** Declared length of a stream's raw (encoded) data, without reading it. */
export function rawStreamLength(value: mupdf.PDFObject): number {
  return Math.max(0, numberOf(value.get("Length")) ?? 0);
}

/** A copy of a stream object's raw (encoded) data, which outlives the document's buffers. */
export function rawStreamBytes(doc: mupdf.PDFDocument, objectNumber: number): Uint8Array {
  const ref = doc.newIndirect(objectNumber);
  const buffer = ref.readRawStream();
  try {
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
    ref.destroy();
  }
}

export function isImageStream(ref: mupdf.PDFObject): boolean {
  return ref.isStream() && nameOf(ref.get("Subtype")) === "Image";
}

/**
 * Every page's object, in page order. mupdf answers findPage from a page map that any edit of the
 * document drops, so a loop that edits page i before looking up page i+1 walks the whole page
 * tree at every step (quadratic: 20,000 pages took minutes). Taking them all before any edit
 * builds the map once.
 */
export function pageObjects(doc: mupdf.PDFDocument): mupdf.PDFObject[] {
  const count = doc.countPages();
  return Array.from({ length: count }, (_, index) => doc.findPage(index));
}

export function catalogOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return doc.getTrailer().get("Root");
}

export function latin1(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}
