// quality: "auto": the smallest output that scores at least the level's SSIMULACRA 2 target,
// over the encoder's quality (JPEG with mozjpeg's tables at table 5, not a numeric quality's 3:
// perceptual-rules.ts, searchKnob) and, unless the request names it, its chroma (4:2:0 or 4:4:4 for
// JPEG and AVIF, plain or sharp RGB-to-YUV for WebP): 4:2:0 caps the score of colourful, smooth
// pictures below what any quality reaches.
//
// Scoring the whole output costs several encodes of it, so the search first probes a sample: a
// mosaic of tiles spread over the image, cut on the 16-pixel grid JPEG's 4:2:0 blocks and WebP's
// macroblocks use (quality/sample-mosaic.ts, sized by quality/sample-size.ts). Each probe encodes
// and scores the mosaic, its score turned into the whole output's by a measured stretch
// (wholeScoreEstimate). Per chroma, the sample search brackets where the estimate reaches the aim
// on every other rung of a ladder (quality/search-ladder.ts) and interpolates inside the bracket;
// the chroma whose sample costs fewer bytes there is tried first.
//
// Then the whole image is encoded and scored at that answer, and the search goes on with whole
// scores: the stretch holds on photos but not on shaded graphics and charts, whose banding only
// the whole image's coarse scales see. A whole score short of the target moves up, the first one
// more than its format's landing slack above it moves down (a later one more than LANDING_LIMIT),
// and once a whole output below and one above bracket the target the next quality is interpolated
// between them, to the single quality step (perceptual-rules.ts holds the figures). So the answer
// reaches the target and lands at most LANDING_LIMIT above it, unless the quality below it was
// tried and fell short; a 4:2:0 output that cannot reach it at the ceiling hands over to the other
// chroma. An answer landing further above gets up to MAX_FINER_OUTPUTS more whole outputs
// (landFiner): on inside a bracket the cap of whole outputs left open, and where one quality step
// jumps past the window, the format's finer knob from the quality that fell short (FINER_KNOBS:
// JPEG's quantisation table 2, WebP's effort 2; reported as stats.jpeg_table and
// stats.webp_effort). Every score reported is the output's own.
//
// AVIF has no sample search: the mosaic misjudged its whole output by up to 10 points on pictures
// it was not tuned on. Its steps above move between drafts instead (the whole image encoded at the
// encoder's fastest effort, scored whole, a little below the output it stands for) from the
// format's typical quality until one lands within a narrower window, and the output is then made
// where they point and scored, moving on along the drafts' own curve if it misses.
//
// A target no setting reaches is not answered at the ceiling: the answer is the smallest output
// within one point of the highest score any setting reached, with targetMet false. The search
// answers inside the call's deadline (quality/step-budget.ts): when the next step does not fit,
// it answers the smallest whole output reaching the target, else the level's typical quality
// encoded whole (unscored unless it was already), with targetMet false.
//
// The sample search is searchQualityBoundary (fit-to-bytes.ts) with the predicate "the output's
// score, estimated from the sample's, is below the aim", which holds up to the boundary on an
// ascending ladder, and the model the PDF floors use too (quality/predict-quality.ts). The steps
// themselves are perceptual-search.ts; measurements behind the figures are in
// scripts/bench-quality/README.md.
import sharp, { type Sharp } from "sharp";
import { perceptualScore } from "../quality/perceptual-score.ts";
import { PerceptualSearchRun, type PerceptualOutcome, type PerceptualSearch, type WholeEncoder } from "./perceptual-search.ts";
import { rawRgb } from "./raw-rgb.ts";

export type { PerceptualOutcome, PerceptualSearch, SearchStep, WholeEncoder } from "./perceptual-search.ts";
export type { SearchBudget } from "../quality/step-budget.ts";
export { chromaChoices, landingSlack, typicalQuality } from "./perceptual-rules.ts";

/**
 * Finds the smallest output reaching the level's target. `reference` is the still image the
 * encoder gets (after flattening); `encodeImage` encodes it whole as the output.
 */
export async function searchPerceptualQuality(reference: Sharp, encodeImage: WholeEncoder, search: PerceptualSearch): Promise<PerceptualOutcome> {
  return (await PerceptualSearchRun.start(reference, encodeImage, search)).run();
}

/** The whole output's SSIMULACRA 2 against the still image it was encoded from. */
export async function scoreOutput(reference: Sharp, bytes: Uint8Array): Promise<number> {
  const pixels = await rawRgb(reference);
  return perceptualScore(pixels, await rawRgb(sharp(bytes), pixels.channels));
}
