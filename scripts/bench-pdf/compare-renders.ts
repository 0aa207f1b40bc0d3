// Min SSIM per output over the input's pages, rendering a chunk of pages of every
// document at a time so a long book never sits on disk or in memory whole. Beside
// them, the same score for the input itself rendered by MuPDF: how far two faithful
// renderings of the very same bytes already differ, which is about what any resampler
// other than pdftoppm's own scores where an image is brought down to the render's dpi.
import path from "node:path";
import { openForRendering, renderPageLuma } from "../../origin/pdf/render-luma.ts";
import { ssim } from "../../origin/pdf/ssim.ts";
import type { LumaImage } from "../../origin/pdf/ssim.ts";
import { RENDER_DPI, renderPages } from "./render-pages.ts";
import type { RenderedPage } from "./render-pages.ts";

export const SSIM_TARGET = 0.97;
const PAGES_PER_CHUNK = 16;

export interface RenderScore {
  /** Lowest page SSIM, or null when the input itself renders no page to compare against. */
  minSsim: number | null;
  pagesBelowTarget: number;
  /** The pages below the target that did render at the input's size, 1-based. */
  lowPages: number[];
  /** Pages of the output that did not render, or rendered at another pixel size: SSIM 0. */
  pagesNotComparable: number;
}

export interface RenderComparison {
  outputs: RenderScore[];
  /** The input rendered by MuPDF at the same resolution, scored like an output over the pages both renderers size alike. */
  inputByMupdf: RenderScore;
}

const emptyScore = (): RenderScore => ({ minSsim: null, pagesBelowTarget: 0, lowPages: [], pagesNotComparable: 0 });

function addPage(score: RenderScore, page: number, before: RenderedPage, after: LumaImage | undefined): void {
  const comparable = after !== undefined && after.width === before.width && after.height === before.height;
  const value = comparable ? ssim(before, after) : 0;
  if (!comparable) score.pagesNotComparable++;
  score.minSsim = Math.min(score.minSsim ?? 1, value);
  if (value < SSIM_TARGET) score.pagesBelowTarget++;
  if (value < SSIM_TARGET && comparable) score.lowPages.push(page);
}

function mupdfRender(doc: ReturnType<typeof openForRendering>, index: number): LumaImage | undefined {
  try {
    return renderPageLuma(doc, index, RENDER_DPI);
  } catch {
    return undefined;
  }
}

/** Unlike an output's, a page the two renderers size differently (or MuPDF cannot load) is left out: it says nothing of their agreement. */
function addReferencePage(score: RenderScore, page: number, before: RenderedPage, after: LumaImage | undefined): void {
  if (after === undefined || after.width !== before.width || after.height !== before.height) score.pagesNotComparable++;
  else addPage(score, page, before, after);
}

/** Scores each output PDF (same page count as the input) against the input, pages 1..pages. */
export async function compareRenders(input: string, inputBytes: Uint8Array, outputs: string[], password: string | null, pages: number, workDir: string): Promise<RenderComparison> {
  const scores: RenderScore[] = outputs.map(emptyScore);
  const inputByMupdf = emptyScore();
  const mupdfDoc = openForRendering(inputBytes, password);
  try {
    for (let first = 1; first <= pages; first += PAGES_PER_CHUNK) {
      const last = Math.min(pages, first + PAGES_PER_CHUNK - 1);
      const [reference, ...rendered] = await Promise.all(
        [input, ...outputs].map((pdf, index) => renderPages(pdf, password, first, last, path.join(workDir, `render${index}`))),
      );
      for (let page = first; page <= last; page++) {
        const before = reference!.get(page);
        if (before === undefined) continue;
        rendered.forEach((pagesOfOutput, index) => addPage(scores[index]!, page, before, pagesOfOutput.get(page)));
        addReferencePage(inputByMupdf, page, before, mupdfRender(mupdfDoc, page - 1));
      }
    }
  } finally {
    mupdfDoc.destroy();
  }
  return { outputs: scores, inputByMupdf };
}
