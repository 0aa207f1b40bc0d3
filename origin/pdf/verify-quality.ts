// verify_quality: renders every page of the input and of the output at a fixed
// resolution, scores each page by luma SSIM, and for pages below the threshold
// decides which images to encode again: a JPEG below VERIFY_RAISED_QUALITY is
// raised to it first, anything else (or a JPEG already raised) is kept original.
import { PDF_VERIFY_DPI } from "../../contracts/pdf-options.ts";
import { openForRendering, renderPageLuma } from "./render-luma.ts";
import type { ImageOverride, ImageRewriteStat } from "./rewrite-images.ts";
import { ssim } from "./ssim.ts";
import type { PdfVerify } from "../../contracts/origin/pdf-compress.ts";

export type PageSsim = PdfVerify["pages"][number];

export type VerifyStats = PdfVerify;

export const VERIFY_RAISED_QUALITY = 90;
/** Raise, then restore: two rounds settle every image. */
export const VERIFY_MAX_ROUNDS = 2;

const SSIM_DECIMALS = 1e5;

/** SSIM of the given pages (1-based; every page when omitted), rendered at PDF_VERIFY_DPI. */
export function measurePageSsims(input: Uint8Array, output: Uint8Array, password: string | null, pages?: number[]): PageSsim[] {
  const before = openForRendering(input, password);
  const after = openForRendering(output, password);
  try {
    const numbers = pages ?? Array.from({ length: before.countPages() }, (_, index) => index + 1);
    return numbers.map((page) => {
      const left = renderPageLuma(before, page - 1, PDF_VERIFY_DPI);
      const right = renderPageLuma(after, page - 1, PDF_VERIFY_DPI);
      const score = left.width === right.width && left.height === right.height ? ssim(left, right) : 0;
      return { page, ssim: Math.floor(score * SSIM_DECIMALS) / SSIM_DECIMALS };
    });
  } finally {
    before.destroy();
    after.destroy();
  }
}

/**
 * Escalates the override of every rewritten image drawn on a failing page.
 * Returns false when no image there can be escalated any further.
 */
export function escalateFailingImages(failingPages: ReadonlySet<number>, images: ImageRewriteStat[], overrides: Map<number, ImageOverride>): boolean {
  let changed = false;
  for (const image of images) {
    if (image.after === null || !image.pages.some((page) => failingPages.has(page))) continue;
    const raisable = image.after.filter === "DCTDecode" && (image.after.quality ?? 100) < VERIFY_RAISED_QUALITY;
    overrides.set(image.object_number, raisable ? { quality: VERIFY_RAISED_QUALITY } : "original");
    changed = true;
  }
  return changed;
}

export function summarizeVerify(threshold: number, pages: PageSsim[], images: ImageRewriteStat[], overrides: ReadonlyMap<number, ImageOverride>, rounds: number): VerifyStats {
  const escalated = images.filter((image) => overrides.has(image.object_number));
  return {
    dpi: PDF_VERIFY_DPI,
    threshold,
    pages,
    min_ssim: pages.length === 0 ? 1 : Math.min(...pages.map((page) => page.ssim)),
    images_restored: escalated.filter((image) => image.after === null).length,
    images_requality: escalated.filter((image) => image.after !== null).length,
    rounds,
  };
}
