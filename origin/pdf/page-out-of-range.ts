import { ProblemError } from "../../contracts/problems/catalogue.ts";

/** The problem for a page past the document's last. Its own module, so naming it loads no PDF engine. */
export function pageOutOfRange(page: number, pages: number): ProblemError {
  return new ProblemError("page_out_of_range", `Page ${page} was asked for; the source has ${pages} page${pages === 1 ? "" : "s"}.`, {
    extensions: { page, pages },
  });
}
