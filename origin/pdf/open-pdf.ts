// Opens untrusted bytes as a PDF and turns every way that can fail into a problem.
import * as mupdf from "mupdf";
import { PDF_MAX_BYTES, PDF_MAX_PAGES } from "../../contracts/limits/pdf.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { checkDecodedSizes } from "./decoded-size.ts";
import { isDocumentProblem } from "./document-problem.ts";
import { forEachObject, latin1 } from "./pdf-objects.ts";

export interface OpenedPdf {
  doc: mupdf.PDFDocument;
  encrypted: boolean;
  /** The password that opened it, kept so the output can be encrypted the same way. */
  password: string | null;
}

const PDF_HEADER = "%PDF-";
// The header may follow some junk; readers accept it within the first kilobyte.
const HEADER_SEARCH_BYTES = 1024;

function hasPdfHeader(input: Uint8Array): boolean {
  return latin1(input.subarray(0, HEADER_SEARCH_BYTES)).includes(PDF_HEADER);
}

export function openPdf(input: Uint8Array, password: string | null): OpenedPdf {
  if (input.byteLength > PDF_MAX_BYTES) {
    throw new ProblemError("payload_too_large", `The PDF is ${input.byteLength} bytes; the limit is ${PDF_MAX_BYTES} bytes (200 MB).`);
  }
  if (!hasPdfHeader(input)) throw new ProblemError("pdf_unreadable", "The file has no %PDF- header: it is not a PDF.");
  let doc: mupdf.PDFDocument;
  try {
    const opened = mupdf.Document.openDocument(input, "application/pdf");
    const pdf = opened.asPDF();
    if (pdf === null) throw new Error("not a PDF document");
    doc = pdf;
  } catch (error) {
    throw new ProblemError("pdf_unreadable", `The PDF could not be opened: ${String(error)}`);
  }
  const encrypted = !doc.getTrailer().get("Encrypt").isNull();
  try {
    if (doc.needsPassword()) {
      if (password === null) throw new ProblemError("pdf_password_required", "The PDF is encrypted; send its password in `options.password`.");
      if (doc.authenticatePassword(password) === 0) throw new ProblemError("pdf_password_invalid", "The password opens neither as the user nor as the owner password.");
    }
    // Counted from the page tree before any page is loaded.
    const pages = countPagesOrZero(doc);
    if (pages > PDF_MAX_PAGES) {
      throw new ProblemError("payload_too_large", `The PDF has ${pages} pages; the limit is ${PDF_MAX_PAGES}.`, { extensions: { pages, max_pages: PDF_MAX_PAGES } });
    }
    loadEveryObject(doc);
    checkDecodedSizes(doc, input.byteLength);
    if (countPagesOrZero(doc) === 0) throw new ProblemError("pdf_unreadable", "No page could be read: the page tree is missing or damaged.");
  } catch (error) {
    doc.destroy();
    throw error;
  }
  return { doc, encrypted, password: encrypted ? password : null };
}

/**
 * mupdf repairs a damaged xref lazily, when a broken object is first touched, and
 * objects can change kind then (a stream that was unreadable becomes one). Touching
 * every object up front makes every later walk see the same, repaired document.
 */
function loadEveryObject(doc: mupdf.PDFDocument): void {
  forEachObject(doc, (_, ref) => {
    ref.isDictionary();
  });
}

function countPagesOrZero(doc: mupdf.PDFDocument): number {
  try {
    return doc.countPages();
  } catch {
    return 0;
  }
}

/**
 * Runs a read of an opened document and reports a failure inside mupdf as
 * pdf_unreadable (422): a damaged file must not surface as an internal error, and
 * an error of our own must not pass for a damaged file.
 */
export function readOrUnreadable<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw unreadable(what, error);
  }
}

/** The asynchronous form of readOrUnreadable. */
export async function readOrUnreadableAsync<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw unreadable(what, error);
  }
}

/** A document problem becomes pdf_unreadable; a bug of ours is thrown as it is, to be a 500. */
function unreadable(what: string, error: unknown): unknown {
  if (error instanceof ProblemError || !isDocumentProblem(error)) return error;
  return new ProblemError("pdf_unreadable", `The PDF is damaged: ${what} failed (${String(error)}).`);
}
