// The profile's perceptual floor checked where a reader meets it: each page of our output that
// holds a rewritten image, rendered in RGB by pdftoppm at the bench's resolution, scored with
// SSIMULACRA 2 against the input's page rendered alike. Compress holds each image, at the size
// it writes it, to the floor; a page adds the renderer's own resampling and dilutes an image's
// loss with whatever else the page holds unchanged, so this is the reader's view, not a
// re-run of compress's own search. Scores run on worker threads while the next pages render.
import path from "node:path";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { PerceptualScorePool } from "../../origin/quality/perceptual-score.ts";
import { renderRgbPages } from "./render-pages.ts";

export interface FloorScores {
  /** Pages scored: those holding an image the output rewrote, within the pages the bench renders. */
  scored: number;
  below: number;
  /** Lowest page score, null when no page was scored. */
  min: number | null;
}

// Pages rendered or scored at once, each pair about 13 MB at 150 dpi (letter, RGB, both sides).
const PAGES_IN_FLIGHT = 3;

export async function floorScores(input: string, output: string, password: string | null, pages: readonly number[], floor: number, workDir: string, pool: PerceptualScorePool): Promise<FloorScores> {
  const inFlight = concurrencyLimit(PAGES_IN_FLIGHT);
  const scores = await Promise.all(
    pages.map((page) =>
      inFlight(async () => {
        const pair = await Promise.all([input, output].map((pdf, index) => renderRgbPages(pdf, password, page, page, path.join(workDir, `floor${page}-${index}`))));
        const [before, after] = pair.map((rendered) => rendered.get(page));
        // A page that does not render, or renders at another size, is below any floor.
        if (before === undefined || after === undefined || before.width !== after.width || before.height !== after.height) return 0;
        return pool.score(before, after);
      }),
    ),
  );
  return { scored: scores.length, below: scores.filter((score) => score < floor).length, min: scores.length === 0 ? null : Math.min(...scores) };
}
