// Renders two PDFs with mupdf and compares them page by page on luma: the mean
// absolute difference (0..255) and a block SSIM (8x8 windows, the constants of
// Wang et al. 2004), enough to tell a faithful rewrite from a broken one.
import * as mupdf from "mupdf";

export interface PageComparison {
  page: number;
  meanAbsDiff: number;
  ssim: number;
}

interface LumaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

function renderPage(doc: mupdf.Document, index: number, dpi: number): LumaImage {
  const page = doc.loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
  try {
    return { data: pixmap.getPixels().slice(), width: pixmap.getWidth(), height: pixmap.getHeight() };
  } finally {
    pixmap.destroy();
    page.destroy();
  }
}

const WINDOW = 8;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

export function blockSsim(a: LumaImage, b: LumaImage): number {
  let sum = 0;
  let windows = 0;
  for (let y0 = 0; y0 + WINDOW <= a.height; y0 += WINDOW) {
    for (let x0 = 0; x0 + WINDOW <= a.width; x0 += WINDOW) {
      let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
      for (let y = y0; y < y0 + WINDOW; y++) {
        for (let x = x0; x < x0 + WINDOW; x++) {
          const va = a.data[y * a.width + x] ?? 0;
          const vb = b.data[y * b.width + x] ?? 0;
          sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb;
        }
      }
      const n = WINDOW * WINDOW;
      const ma = sa / n, mb = sb / n;
      const va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb;
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      windows++;
    }
  }
  return windows === 0 ? 1 : sum / windows;
}

function meanAbsDiff(a: LumaImage, b: LumaImage): number {
  let total = 0;
  for (let i = 0; i < a.data.length; i++) total += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return total / Math.max(1, a.data.length);
}

function open(bytes: Uint8Array, password: string | null): mupdf.Document {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  if (password !== null && doc.needsPassword()) doc.authenticatePassword(password);
  return doc;
}

/** Compares the first maxPages pages of two documents rendered at dpi. */
export function comparePdfRenders(before: Uint8Array, after: Uint8Array, options: { dpi: number; maxPages: number; password?: string | null }): PageComparison[] {
  const a = open(before, options.password ?? null);
  const b = open(after, options.password ?? null);
  try {
    const pages = Math.min(a.countPages(), options.maxPages);
    const results: PageComparison[] = [];
    for (let index = 0; index < pages; index++) {
      const left = renderPage(a, index, options.dpi);
      const right = renderPage(b, index, options.dpi);
      if (left.width !== right.width || left.height !== right.height) {
        results.push({ page: index + 1, meanAbsDiff: 255, ssim: 0 });
        continue;
      }
      results.push({ page: index + 1, meanAbsDiff: meanAbsDiff(left, right), ssim: blockSsim(left, right) });
    }
    return results;
  } finally {
    a.destroy();
    b.destroy();
  }
}
