// Which failures are the document's and which are ours. mupdf, sharp and the JBIG2 encoder
// report what they cannot do with a file's content as plain Errors, and our own checks throw
// problems; JavaScript's own error subclasses (TypeError, RangeError, ...) mean a bug in our
// code, which must surface as a 500 and be fixed, not be passed off as a property of the file.
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export function isDocumentProblem(error: unknown): boolean {
  return error instanceof ProblemError || (error instanceof Error && error.constructor === Error);
}
