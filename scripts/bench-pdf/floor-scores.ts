// The profile's perceptual floor checked where a reader meets it: each page of our output that
// holds a rewritten image, rendered in RGB by pdftoppm at the bench's resolution, scored with
// SSIMULACRA 2 against the input's page rendered alike. Compress holds each image, at the size
// it writes it, to the floor; a page adds the renderer's own resampling and dilutes an image's
// loss with whatever else the page holds unchanged, so this is the reader's view, not a
// re-run of compress's own search. Scores run on worker threads while the next pages render.
// A page below the floor gets the second look the SSIM check gives (supersampled-ssim.ts): both
// rendered at four times the resolution and area-averaged down, which leaves out how pdftoppm
// itself brings an image placed above 150 dpi down (a 300 dpi scan drawn by pdftoppm at 150 dpi
// is not its area average, and SSIMULACRA 2 reads that difference as loss).
import path from "node:path";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import type { PerceptualScorePool } from "../../origin/quality/perceptual-score.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";
import { RENDER_DPI, renderRgbPages } from "./render-pages.ts";
import { areaAverage, FACTOR } from "./supersampled-ssim.ts";

export interface FloorScores {
  /** Pages scored: those holding an image the output rewrote, within the pages the bench renders. */
  scored: number;
  below: number;
  /** Of those, the pages still below the floor rendered at four times the resolution and averaged down. */
  belowSupersampled: number;
  /** Lowest page score, null when no page was scored. */
  min: number | null;
}

// Pages rendered or scored at once, each pair about 13 MB at 150 dpi (letter, RGB, both sides).
const PAGES_IN_FLIGHT = 3;

async function renderPage(pdf: string, password: string | null, page: number, dir: string, factor: number): Promise<RawImage | undefined> {
  const rendered = (await renderRgbPages(pdf, password, page, page, dir, RENDER_DPI * factor)).get(page);
  if (rendered === undefined || factor === 1) return rendered;
  return { ...areaAverage(rendered, factor, 3), channels: 3 };
}

/** The page's score; a page that does not render, or renders at another size, is below any floor. */
async function scorePage(input: string, output: string, password: string | null, page: number, workDir: string, factor: number, pool: PerceptualScorePool): Promise<number> {
  const [before, after] = await Promise.all([input, output].map((pdf, index) => renderPage(pdf, password, page, path.join(workDir, `floor${page}-${index}`), factor)));
  if (before === undefined || after === undefined || before.width !== after.width || before.height !== after.height) return 0;
  return pool.score(before, after);
}

export async function floorScores(input: string, output: string, password: string | null, pages: readonly number[], floor: number, workDir: string, pool: PerceptualScorePool): Promise<FloorScores> {
  const inFlight = concurrencyLimit(PAGES_IN_FLIGHT);
  const scores = await Promise.all(pages.map((page) => inFlight(() => scorePage(input, output, password, page, workDir, 1, pool))));
  const lowPages = pages.filter((_, index) => scores[index]! < floor);
  let belowSupersampled = 0;
  // One page at a time: a letter page at 600 dpi is about 100 MB of RGB a side.
  for (const page of lowPages) if ((await scorePage(input, output, password, page, workDir, FACTOR, pool)) < floor) belowSupersampled++;
  return { scored: scores.length, below: lowPages.length, belowSupersampled, min: scores.length === 0 ? null : Math.min(...scores) };
}
