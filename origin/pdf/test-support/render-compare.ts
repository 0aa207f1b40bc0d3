// Renders two PDFs with mupdf and compares them page by page on luma: the mean
// absolute difference (0..255) and SSIM (Wang et al. 2004), enough to tell a
// faithful rewrite from a broken one.
import { openForRendering, renderPageLuma } from "../render-luma.ts";
import { ssim } from "../ssim.ts";
import type { LumaImage } from "../ssim.ts";

export interface PageComparison {
  page: number;
  meanAbsDiff: number;
  ssim: number;
}

function meanAbsDiff(a: LumaImage, b: LumaImage): number {
  let total = 0;
  for (let i = 0; i < a.data.length; i++) total += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return total / Math.max(1, a.data.length);
}

/** Compares the first maxPages pages of two documents rendered at dpi. */
export function comparePdfRenders(before: Uint8Array, after: Uint8Array, options: { dpi: number; maxPages: number; password?: string | null }): PageComparison[] {
  const a = openForRendering(before, options.password ?? null);
  const b = openForRendering(after, options.password ?? null);
  try {
    const pages = Math.min(a.countPages(), options.maxPages);
    const results: PageComparison[] = [];
    for (let index = 0; index < pages; index++) {
      const left = renderPageLuma(a, index, options.dpi);
      const right = renderPageLuma(b, index, options.dpi);
      if (left.width !== right.width || left.height !== right.height) {
        results.push({ page: index + 1, meanAbsDiff: 255, ssim: 0 });
        continue;
      }
      results.push({ page: index + 1, meanAbsDiff: meanAbsDiff(left, right), ssim: ssim(left, right) });
    }
    return results;
  } finally {
    a.destroy();
    b.destroy();
  }
}
