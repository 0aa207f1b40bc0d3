// Reads back what compress wrote: the image objects a page draws, with their
// dictionaries and raw stream bytes.
import * as mupdf from "mupdf";

export interface WrittenImage {
  objectNumber: number;
  width: number;
  height: number;
  filter: string;
  colorSpace: string;
  softMask: { width: number; height: number } | null;
  raw: Uint8Array;
}

function openAny(bytes: Uint8Array, password?: string): mupdf.PDFDocument {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  if (password !== undefined) doc.authenticatePassword(password);
  return doc;
}

/** The image XObjects in each page's resources, by page. */
export function pageImages(bytes: Uint8Array, password?: string): WrittenImage[][] {
  const doc = openAny(bytes, password);
  try {
    const pages: WrittenImage[][] = [];
    for (let index = 0; index < doc.countPages(); index++) {
      const images: WrittenImage[] = [];
      const xobjects = doc.findPage(index).get("Resources", "XObject");
      if (xobjects.isDictionary()) {
        xobjects.forEach((ref) => {
          const smask = ref.get("SMask");
          images.push({
            objectNumber: ref.asIndirect(),
            width: ref.get("Width").asNumber(),
            height: ref.get("Height").asNumber(),
            filter: ref.get("Filter").isName() ? ref.get("Filter").asName() : ref.get("Filter").toString(),
            colorSpace: ref.get("ColorSpace").toString(),
            softMask: smask.isNull() ? null : { width: smask.get("Width").asNumber(), height: smask.get("Height").asNumber() },
            raw: ref.readRawStream().asUint8Array().slice(),
          });
        });
      }
      pages.push(images);
    }
    return pages;
  } finally {
    doc.destroy();
  }
}

/** Whether a JPEG's frame is baseline (SOF0) rather than progressive (SOF2). */
export function jpegFrameType(jpeg: Uint8Array): "baseline" | "progressive" | "other" | null {
  let offset = 2;
  while (offset + 4 <= jpeg.byteLength && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1] ?? 0;
    if (marker === 0xc0) return "baseline";
    if (marker === 0xc2) return "progressive";
    if (marker >= 0xc1 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return "other";
    offset += 2 + (((jpeg[offset + 2] ?? 0) << 8) | (jpeg[offset + 3] ?? 0));
  }
  return null;
}
