// Min SSIM per output over the input's pages, rendering a chunk of pages of every
// document at a time so a long book never sits on disk or in memory whole.
import path from "node:path";
import { ssim } from "../../origin/pdf/ssim.ts";
import { renderPages } from "./render-pages.ts";
import type { RenderedPage } from "./render-pages.ts";

export const SSIM_TARGET = 0.97;
const PAGES_PER_CHUNK = 16;

export interface RenderScore {
  /** Lowest page SSIM, or null when the input itself renders no page to compare against. */
  minSsim: number | null;
  pagesBelowTarget: number;
  /** Pages of the output that did not render, or rendered at another pixel size: SSIM 0. */
  pagesNotComparable: number;
}

/** Scores each output PDF (same page count as the input) against the input, pages 1..pages. */
export async function compareRenders(input: string, outputs: string[], password: string | null, pages: number, workDir: string): Promise<RenderScore[]> {
  const scores: RenderScore[] = outputs.map(() => ({ minSsim: null, pagesBelowTarget: 0, pagesNotComparable: 0 }));
  for (let first = 1; first <= pages; first += PAGES_PER_CHUNK) {
    const last = Math.min(pages, first + PAGES_PER_CHUNK - 1);
    const [reference, ...rendered] = await Promise.all(
      [input, ...outputs].map((pdf, index) => renderPages(pdf, password, first, last, path.join(workDir, `render${index}`))),
    );
    for (let page = first; page <= last; page++) {
      const before = reference!.get(page);
      if (before === undefined) continue;
      rendered.forEach((pagesOfOutput, index) => {
        const after = pagesOfOutput.get(page);
        const comparable = after !== undefined && after.width === before.width && after.height === before.height;
        const value = comparable ? ssim(before, after) : 0;
        const score = scores[index]!;
        if (!comparable) score.pagesNotComparable++;
        score.minSsim = Math.min(score.minSsim ?? 1, value);
        if (value < SSIM_TARGET) score.pagesBelowTarget++;
      });
    }
  }
  return scores;
}
