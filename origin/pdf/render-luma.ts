// Renders PDF pages to 8-bit luma with MuPDF, for SSIM between an input and its
// output (verify_quality) and for the tests' render comparisons.
import * as mupdf from "mupdf";
import type { LumaImage } from "./ssim.ts";

export function openForRendering(bytes: Uint8Array, password: string | null): mupdf.Document {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  if (password !== null && doc.needsPassword()) doc.authenticatePassword(password);
  return doc;
}

/** One page (0-based index) at dpi, anti-aliased, on white. */
export function renderPageLuma(doc: mupdf.Document, index: number, dpi: number): LumaImage {
  const page = doc.loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
  try {
    return { data: pixmap.getPixels().slice(), width: pixmap.getWidth(), height: pixmap.getHeight() };
  } finally {
    pixmap.destroy();
    page.destroy();
  }
}
