// How large the console draws a PDF's pages and how many: each distinct picture is a derivative of
// the stored file, and a file has at most MAX_DERIVATIVES_PER_FILE of them.
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";

/** Thumbnails, drawn about half as wide on the page, so they stay sharp on a 2x screen. */
export const THUMBNAIL_WIDTH = 400;
/** Before and after at 1:1 in the comparison. */
export const COMPARE_WIDTH = 1000;
/** Pages shown at first and added by each "show more". */
export const THUMBNAIL_STEP = 12;
/** The original's thumbnails and its compared pages share its derivatives: each has its own part, so neither runs the other out. */
export const COMPARED_PAGES_MAX = 14;
export const THUMBNAIL_PAGES_MAX = MAX_DERIVATIVES_PER_FILE - COMPARED_PAGES_MAX;

export const pageTransform = (page: number, width: number) => `pg_${page},w_${width}`;
