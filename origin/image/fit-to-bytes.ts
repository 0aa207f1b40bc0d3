// max_bytes: the highest quality (up to the requested one) whose output fits.
// Instead of bisecting (about 7 encodes), each probe solves a size model
// through what has been measured: ln(bytes) linear in the quantiser scale
// (see scaleCoordinate), with a prior slope while there is one point, the
// secant of the two lowest misses while nothing fits, then interpolation
// inside the bracket. Probes are placed so that, if the model holds, the
// next one closes the bracket to QUALITY_TOLERANCE + 1, or the interpolation
// between a fit and a miss puts the best within one step of the fit: the
// answer is then the highest fit, within QUALITY_TOLERANCE of the best that
// fits (sizes being monotone in quality).
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export const MIN_SEARCH_QUALITY = 10;
export const QUALITY_TOLERANCE = 2;
// The widest bracket (in quality steps) inside which the interpolation is trusted to end the search.
const TRUSTED_BRACKET = 8;
// d ln(bytes) / d scaleCoordinate between q76 and the qualities budgets usually land on, measured
// on the corpus photos (exif-orientation, kimono, fox) at 1600 px: JPEG 0.75 to 0.9, WebP 0.5 to
// 0.7, AVIF 1.0 to 1.5 (its quantiser follows quality linearly, not libjpeg's scale). Erring
// steep keeps the first probe near the ceiling, where a miss still closes the bracket cheaply.
export const PRIOR_SLOPES = { jpeg: 0.9, webp: 0.7, avif: 1.4, png: 0.9 } as const;

export interface FitOutcome {
  bytes: Uint8Array;
  quality: number;
  /** Encodes made by the search (a `known` encode is not counted). */
  encodes: number;
}

interface Sample {
  quality: number;
  bytes: Uint8Array;
}

export interface FitSearch {
  /** The qualities the search may pick, ascending; the last entry is the ceiling. */
  ladder: readonly number[];
  /** An encode already made at the ceiling. */
  known?: Uint8Array;
  /** The size curve's expected slope (see PRIOR_SLOPES), used until two misses measure one. */
  priorSlope: number;
}

export async function fitToBytes(encodeAt: (quality: number) => Promise<Uint8Array>, maxBytes: number, search: FitSearch): Promise<FitOutcome> {
  const { ladder, known, priorSlope } = search;
  const ceiling = ladder.at(-1);
  if (ceiling === undefined) throw new Error("fitToBytes needs a non-empty ladder");
  let encodes = 0;
  const measure = async (quality: number): Promise<Sample> => {
    encodes++;
    return { quality, bytes: await encodeAt(quality) };
  };
  const fits = (sample: Sample) => sample.bytes.byteLength <= maxBytes;

  let over: Sample = known ? { quality: ceiling, bytes: known } : await measure(ceiling);
  if (fits(over)) return { ...over, encodes };
  let previousOver: Sample | null = null;
  let under: Sample | null = null;

  for (;;) {
    const between = ladder.filter((q) => q > (under?.quality ?? -Infinity) && q < over.quality);
    if (under !== null && (between.length === 0 || over.quality - under.quality <= QUALITY_TOLERANCE + 1)) {
      return { ...under, encodes };
    }
    // Between a fit and a miss the model is an interpolation, accurate to about a step: when it
    // puts the best within one step above the fit, proving it with another encode buys nothing
    // the tolerance does not already allow.
    if (
      under !== null &&
      over.quality - under.quality <= TRUSTED_BRACKET &&
      Math.floor(crossingQuality(under, over, maxBytes)) - under.quality <= QUALITY_TOLERANCE - 1
    ) {
      return { ...under, encodes };
    }
    if (between.length === 0) {
      throw new ProblemError(
        "max_bytes_unreachable",
        `The smallest output reached is ${over.bytes.byteLength} bytes (quality ${over.quality}), above max_bytes ${maxBytes}.`,
        { extensions: { max_bytes: maxBytes, smallest_bytes: over.bytes.byteLength, lowest_quality_tried: over.quality } },
      );
    }
    const next = nextProbe(between, predictCrossing(under, over, previousOver, maxBytes, priorSlope), under, over);
    const sample = await measure(next);
    if (fits(sample)) {
      under = sample;
    } else {
      previousOver = over;
      over = sample;
    }
  }
}

// Sizes are modelled as log-linear not in quality itself but in the libjpeg
// quantiser scale it stands for (5000/q below 50, 200-2q above, at least 1): in that
// coordinate the slope of ln(bytes) varied 2 times across 10..95 on the
// measured photo curves, against 3 times in raw quality.
function scaleCoordinate(quality: number): number {
  return -Math.log(quality < 50 ? 5000 / quality : Math.max(1, 200 - 2 * quality));
}

function qualityAt(coordinate: number): number {
  const scale = Math.exp(-coordinate);
  return scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
}

// The quality where the size line is predicted to reach `maxBytes`: through
// the bracket when there is one, else along the secant of the two lowest
// misses, else along the prior slope from the only miss.
function predictCrossing(under: Sample | null, over: Sample, previousOver: Sample | null, maxBytes: number, priorSlope: number): number {
  if (under !== null) return crossingQuality(under, over, maxBytes);
  const measured = previousOver ? logSlope(over, previousOver) : 0;
  const slope = measured > 0 ? measured : priorSlope;
  return qualityAt(scaleCoordinate(over.quality) - Math.log(over.bytes.byteLength / maxBytes) / slope);
}

// Prefers a probe that ends the search if the prediction holds: one that fits
// within the tolerance below the lowest miss, or one that misses just above
// the tolerance over the highest fit.
function nextProbe(between: number[], crossing: number, under: Sample | null, over: Sample): number {
  const predictedBest = Math.floor(crossing);
  const closingFromBelow = over.quality - QUALITY_TOLERANCE - 1;
  const closingFromAbove = under === null ? -Infinity : under.quality + QUALITY_TOLERANCE + 1;
  let wanted: number;
  if (predictedBest >= closingFromBelow) wanted = closingFromBelow;
  else if (predictedBest < closingFromAbove) wanted = closingFromAbove;
  else wanted = predictedBest;
  return between.filter((q) => q <= wanted).at(-1) ?? between[0]!;
}

/** Lossy formats: every quality from the search floor up to the requested one. */
export function qualityLadder(ceiling: number): number[] {
  const ladder: number[] = [];
  for (let q = Math.min(MIN_SEARCH_QUALITY, ceiling); q <= ceiling; q++) ladder.push(q);
  return ladder;
}

// The quality where the line through two samples reaches `bytes`.
function crossingQuality(low: Sample, high: Sample, bytes: number): number {
  const slope = logSlope(low, high);
  if (!(slope > 0)) return (low.quality + high.quality) / 2;
  return qualityAt(scaleCoordinate(low.quality) + Math.log(bytes / low.bytes.byteLength) / slope);
}

function logSlope(low: Sample, high: Sample): number {
  return Math.log(high.bytes.byteLength / low.bytes.byteLength) / (scaleCoordinate(high.quality) - scaleCoordinate(low.quality));
}
