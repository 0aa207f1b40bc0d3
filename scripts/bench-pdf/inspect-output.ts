// What the bench checks about each PDF besides its pixels: the page count poppler
// sees (the renderer the SSIM uses), the AcroForm field names mupdf reads, and qpdf --check.
import { documentShape } from "../../origin/pdf/document-shape.ts";
import { openPdf } from "../../origin/pdf/open-pdf.ts";
import { runCommand } from "./run-command.ts";


/** The page count, or null when poppler cannot read the file. */
export async function pageCount(pdfPath: string, password: string | null): Promise<number | null> {
  const result = await runCommand("pdfinfo", [...(password === null ? [] : ["-upw", password]), pdfPath]);
  const pages = /^Pages:\s+(\d+)/m.exec(result.stdout);
  return result.code === 0 && pages !== null ? Number(pages[1]) : null;
}

/** Fully qualified AcroForm field names, or null when mupdf cannot open the file. */
export function formFieldNames(bytes: Uint8Array, password: string | null): string[] | null {
  let opened;
  try {
    opened = openPdf(bytes, password);
  } catch {
    return null;
  }
  try {
    return documentShape(opened.doc).fieldNames.sort();
  } catch {
    return null;
  } finally {
    opened.doc.destroy();
  }
}

export type QpdfCheck = "ok" | "warnings" | "errors";

export async function qpdfCheck(pdfPath: string, password: string | null): Promise<QpdfCheck> {
  const result = await runCommand("qpdf", [...(password === null ? [] : [`--password=${password}`]), "--check", pdfPath]);
  if (result.code === 0) return "ok";
  return result.code === 3 ? "warnings" : "errors";
}
