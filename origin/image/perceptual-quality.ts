// quality: "auto": the lowest quality whose output scores at least the level's SSIMULACRA 2
// target. Scoring the whole output costs about ten encodes of it (the metric runs ~465 ms per
// megapixel, a q76 JPEG encode ~26), so the search probes a sample instead: a mosaic of tiles
// spread over the image, cut on the 16-pixel grid JPEG's 4:2:0 blocks and WebP's macroblocks use,
// so each tile of the encoded mosaic holds the blocks the full encode makes there
// (quality/sample-mosaic.ts). Each probe encodes and scores the mosaic, its score turned into the
// whole output's by a measured stretch (wholeScoreEstimate). The whole image is encoded and
// scored at the answer: the stretch held on photos, but shaded graphics and charts, whose
// banding only the whole image's coarse scales see, scored up to 1.7 times further from 100 than
// their sample (bench:quality). When the whole falls short, the search goes on above that
// quality aiming as far over the target as the estimate overshot, so the score reported is the
// output's own and reaches the target, or the output is at the ceiling. When the whole lands
// well above the target (the stretch is cautious on most photos), one search below aims as far
// under as the estimate undershot, and keeps the lower answer only if it too reaches the target.
// Probes are kept across these searches. An image no larger than the sample is its own sample,
// and its answer's probe is the output.
//
// The search is searchQualityBoundary (fit-to-bytes.ts) with the predicate "the output's score,
// estimated from the sample's, is below the aim", which holds up to the boundary on an ascending
// ladder, and a model that starts at the level's typical quality for the format and interpolates
// the score linearly in quality between probes.
import sharp, { type Sharp } from "sharp";
import { QUALITY_LEVEL_TARGETS, type QualityLevel } from "../../contracts/perceptual-quality.ts";
import { perceptualScore } from "../quality/perceptual-score.ts";
import type { RawImage } from "../quality/raw-image.ts";
import { blockSample, wholeScoreEstimate, type LossyFormat } from "../quality/sample-mosaic.ts";
import { qualityAtScore, type ScoreCurve } from "../quality/score-curve.ts";
import { encode, type EncoderOptions } from "./encode.ts";
import { searchQualityBoundary, type Bracket, type Probe } from "./fit-to-bytes.ts";

export interface PerceptualOutcome {
  bytes: Uint8Array;
  quality: number;
  /** The output's SSIMULACRA 2 at `quality`, scored whole. */
  score: number;
  /** Encodes made: the sample's probes and the full encode when the sample is not the image. */
  encodes: number;
}

export interface PerceptualSearch {
  format: LossyFormat;
  level: QualityLevel;
  encoder: EncoderOptions;
  /** The highest quality the search may answer (100 unless something else caps it). */
  ceiling?: number;
}

// Typical SSIMULACRA 2 against quality per encoder with this engine's settings (mozjpeg tables,
// WebP effort 4, AVIF effort 2, 4:2:0): medians of the whole outputs of four corpus photos at
// 1600 px (exif-orientation Landscape_0 and Portrait_0, fox, kimono). The model's prior, so the
// first probe lands near the answer; piecewise linear between the points.
const SCORE_CURVES: Record<LossyFormat, ScoreCurve> = {
  jpeg: [[10, -10], [20, 20], [40, 52], [60, 63], [70, 70], [80, 79], [90, 86], [100, 94]],
  webp: [[10, 15], [20, 33], [40, 50], [60, 60], [70, 65], [80, 72.5], [90, 84], [100, 92]],
  avif: [[10, -10], [20, 19], [40, 53], [60, 75], [70, 80.5], [80, 86], [90, 90.5], [100, 95]],
};

/** The quality the format typically needs to reach the level: the search's first guess, and the answer where no score is possible (an animation). */
export function typicalQuality(format: LossyFormat, level: QualityLevel): number {
  return Math.round(Math.min(100, Math.max(1, curveQuality(format, QUALITY_LEVEL_TARGETS[level]))));
}

function curveQuality(format: LossyFormat, score: number): number {
  return qualityAtScore(SCORE_CURVES[format], score);
}

/**
 * Finds the lowest quality whose output reaches the level's target. `reference` is the still
 * image the encoder gets (after flattening); `encodeImage` encodes it whole at a quality.
 */
export async function searchPerceptualQuality(
  reference: Sharp,
  encodeImage: (quality: number) => Promise<Uint8Array>,
  search: PerceptualSearch,
): Promise<PerceptualOutcome> {
  const { format, level, encoder } = search;
  const { channels } = await reference.metadata();
  const pixels = await rawRgb(reference);
  const sample = sampleOf(pixels);
  const whole = sample === pixels;
  // A probe of the whole image is the output only when it is encoded as the output would be:
  // colour (a grey image is scored as RGB) and without metadata.
  const probeIsOutput = whole && encoder.strip_metadata && (channels ?? 3) >= 3;
  const estimate = (sampleScore: number) => (whole ? sampleScore : wholeScoreEstimate(format, sampleScore));
  const target = QUALITY_LEVEL_TARGETS[level];
  const probes = new Map<number, Scored>();
  const measure = async (quality: number): Promise<Scored> => {
    const bytes = await encode(rawInput(sample), { format, lossless: false, quality }, { ...encoder, strip_metadata: true });
    const decoded = await rawRgb(sharp(bytes), sample.channels);
    const scored = { bytes, score: estimate(await perceptualScore(sample, decoded)) };
    probes.set(quality, scored);
    return scored;
  };
  let ladder = qualitiesUpTo(search.ceiling ?? 100);
  // What the estimate is aimed at: the target, then corrected by how far the estimate strayed from
  // the whole output's score where one was scored.
  let aim = target;
  let encodes = 0;
  let reached: PerceptualOutcome | null = null;
  for (;;) {
    const known = ladder.flatMap((quality) => {
      const value = probes.get(quality);
      return value === undefined ? [] : [{ quality, value, passes: value.score < aim }];
    });
    const boundary = await searchQualityBoundary<Scored>({
      ladder,
      measure,
      passes: ({ score }) => score < aim,
      predict: (bracket) => predictQuality(bracket, aim, format),
      known,
    });
    encodes += boundary.measured;
    if (reached !== null && boundary.failing === null) return { ...reached, encodes };
    // The lowest quality reaching the aim; the ceiling when none does.
    const chosen = boundary.failing ?? boundary.passing!;
    if (probeIsOutput) return { bytes: chosen.value.bytes, quality: chosen.quality, score: chosen.value.score, encodes };
    const bytes = await encodeImage(chosen.quality);
    encodes += 1;
    if (whole) return { bytes, quality: chosen.quality, score: chosen.value.score, encodes };
    const score = await perceptualScore(pixels, await rawRgb(sharp(bytes), pixels.channels));
    aim = target + chosen.value.score - score;
    if (score >= target) {
      // Reached: once more below, when the estimate undersold the output by more than a step.
      const below = ladder.filter((quality) => quality < chosen.quality);
      if (reached !== null || score - target < DOWNWARD_SLACK || below.length === 0) return { bytes, quality: chosen.quality, score, encodes };
      reached = { bytes, quality: chosen.quality, score, encodes };
      ladder = below;
      continue;
    }
    // Short: a lower try falls back on the answer that reached the target; else on upwards.
    if (reached !== null) return { ...reached, encodes };
    const above = ladder.filter((quality) => quality > chosen.quality);
    if (above.length === 0) return { bytes, quality: chosen.quality, score, encodes };
    ladder = above;
  }
}

// A whole output this far above the target is worth one search lower: about two rungs of the
// ladder in score.
const DOWNWARD_SLACK = 2;

interface Scored {
  bytes: Uint8Array;
  score: number;
}

// The ladder's step: a score moves about 0.7 a quality step near the targets and its noise
// between neighbouring qualities is about as large, so telling neighbours apart costs probes that
// buy little; at this step the answer is at most LADDER_STEP - 1 qualities above the exact one.
const LADDER_STEP = 3;

function qualitiesUpTo(ceiling: number): number[] {
  const ladder: number[] = [];
  for (let q = ceiling; q >= 1; q -= LADDER_STEP) ladder.unshift(q);
  return ladder;
}

// Where the score reaches the target. The prior curve gives the shape, each probe how far this
// image sits from it (its quality minus the prior's quality for its score); the offset at the
// target is interpolated between the bracket's two probes in score, or taken from the one probe
// there is. Interpolating the offset, not the score, follows the curve's bend across a wide bracket.
function predictQuality({ passing, failing }: Bracket<Scored>, target: number, format: LossyFormat): number {
  const offset = (probe: Probe<Scored>) => probe.quality - curveQuality(format, probe.value.score);
  const prior = curveQuality(format, target);
  if (passing !== null && failing !== null) {
    const rise = failing.value.score - passing.value.score;
    if (!(rise > 0)) return (passing.quality + failing.quality) / 2;
    const t = (target - passing.value.score) / rise;
    const predicted = prior + offset(passing) + t * (offset(failing) - offset(passing));
    return Math.min(failing.quality, Math.max(passing.quality, predicted));
  }
  if (passing !== null) return prior + offset(passing) + OVERSHOOT;
  if (failing !== null) return prior + offset(failing) - OVERSHOOT;
  return prior;
}

// Extrapolating from one side, the prediction goes this many qualities past where the curve puts
// the target, so the next probe most likely lands on the other side and closes a bracket, inside
// which interpolation is far more accurate than creeping up one quality at a time.
const OVERSHOOT = 1.5;

// The sample's size: a few percent of the image's pixels, so that three probes (each an encode,
// a decode and a score at ~500 ms per megapixel) cost less than two encodes of the whole image at
// ~50 ms per megapixel; never fewer than SAMPLE_MIN_PIXELS (eight tiles) nor more than
// SAMPLE_MAX_PIXELS.
const SAMPLE_FRACTION = 0.04;
const SAMPLE_MIN_PIXELS = 8 * 64 * 64;
const SAMPLE_MAX_PIXELS = 512 * 512;

/** The image itself when it is small enough, else a mosaic of tiles spread evenly over it. */
export function sampleOf(image: RawImage): RawImage {
  return blockSample(image, Math.min(SAMPLE_MAX_PIXELS, Math.max(SAMPLE_MIN_PIXELS, image.width * image.height * SAMPLE_FRACTION)));
}

function rawInput(image: RawImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

/** 8-bit sRGB, RGB or RGBA (as `channels` says, else as the image has alpha), for the metric. */
async function rawRgb(image: Sharp, channels?: 3 | 4): Promise<RawImage> {
  const srgb = image.toColourspace("srgb");
  const { hasAlpha } = await image.metadata();
  const wanted = channels ?? (hasAlpha ? 4 : 3);
  const { data, info } = await (wanted === 4 ? srgb.ensureAlpha() : srgb.removeAlpha()).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: wanted };
}
