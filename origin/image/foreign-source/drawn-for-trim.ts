// A vector source (an SVG, a PDF page) is drawn at the box the output fills. A trim cuts the
// drawing's border before the resize, so what it keeps would be smaller than the box: a padded
// 100 px logo drawn for w_400 kept an 80 px mark, which came out 80 px wide, or enlarged and
// blurred under fit_contain. The first drawing is measured with the trim's own rule and, when the
// kept part falls short of the box, drawn again larger by as much, within REDRAW_MAX_PIXELS.
import sharp from "sharp";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { trimmable, trimmedPicture } from "../trim-box.ts";
import type { RasterTarget } from "./raster-target.ts";

// The larger drawing's pixels at most: a mark a hundredth of its page's width would otherwise have
// the page drawn at ten thousand times the box's pixels. Past this the kept part is enlarged after.
const REDRAW_MAX_PIXELS = 4096 * 4096;

/** `draw` at the target, then, under a trim, again at the size whose trimmed part covers the box. */
export async function drawnForTrim(target: RasterTarget, draw: (target: RasterTarget) => Promise<Uint8Array>): Promise<Uint8Array> {
  const first = await draw(target);
  if (target.trim === undefined || (target.width === undefined && target.height === undefined)) return first;
  const { width, height } = await sharp(first).metadata();
  if (!trimmable({ width, height })) return first;
  const { box } = await trimmedPicture(sharp(first), target.trim);
  if (box.width === width && box.height === height) return first;
  // A partly covered pixel at each side counts in the box, so the part kept may be two pixels
  // narrower: a Letter page's mark drawn for w_400 and enlarged by its box came out 394 wide.
  const keptAtLeast = (side: number) => Math.max(1, side - 2);
  const short = Math.max(target.width ? target.width / keptAtLeast(box.width) : 0, target.height ? target.height / keptAtLeast(box.height) : 0);
  const larger = Math.min(short, Math.sqrt(REDRAW_MAX_PIXELS / (width * height)));
  if (!(larger > 1)) return first;
  try {
    return await draw({ ...target, width: Math.ceil(width * larger), height: Math.ceil(height * larger) });
  } catch (error) {
    // The larger drawing only sharpens what the first one answers: where its cost is over the
    // drawing budget, the first stands, enlarged after as before.
    if (error instanceof ProblemError && error.slug === "drawing_too_complex") return first;
    throw error;
  }
}
