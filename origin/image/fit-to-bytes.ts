// max_bytes: the highest quality (up to the requested one) whose output fits,
// exactly: the answer fits and the next quality up was encoded and does not (or
// the answer is the ceiling). A plain bisection of 10..76 costs about 7 encodes;
// this search places each probe where a size model puts the boundary, then on
// the boundary's other side, so that a good model closes it in two probes.
//
// The search itself (searchQualityBoundary) knows nothing of bytes: it finds
// where a monotone predicate over a quality ladder flips, guided by a model's
// prediction of where it does. fitToBytes is that search with the predicate
// "output bytes <= max_bytes" and a log-linear size model.
import { checkDeadline } from "../worker-pool/deadline.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export const MIN_SEARCH_QUALITY = 10;

/**
 * How an encoder's output size follows quality: ln(bytes) linear in a coordinate of quality, with
 * the slope expected before two probes measure one.
 */
export interface SizeModel {
  /**
   * `quantiser`: libjpeg's quantiser scale (5000/q below 50, 200-2q above), whose slope varied 2
   * times across 10..76 on the corpus photos where raw quality's varied 3 times (JPEG, WebP).
   * `quality`: quality itself, for AVIF, whose quantiser follows it linearly (1.5 times, against
   * 2 times in the quantiser scale).
   */
  coordinate: "quantiser" | "quality";
  priorSlope: number;
}

// Median slopes between q76 and the qualities 85/60/40/25% budgets land on, measured on the corpus
// photos (exif-orientation, kimono, fox) at 1600 px (see scripts/bench-image.ts). PNG's ladder is
// four palette tiers, where any slope is a guess.
export const SIZE_MODELS = {
  jpeg: { coordinate: "quantiser", priorSlope: 0.8 },
  webp: { coordinate: "quantiser", priorSlope: 0.57 },
  avif: { coordinate: "quality", priorSlope: 0.034 },
  png: { coordinate: "quantiser", priorSlope: 0.9 },
} as const satisfies Record<string, SizeModel>;

export interface Probe<T> {
  quality: number;
  value: T;
  passes: boolean;
}

export interface BoundarySearch<T> {
  /** The qualities the search may pick, ascending. */
  ladder: readonly number[];
  measure: (quality: number) => Promise<T>;
  /** Monotone over the ladder: true up to some quality, false above it. */
  passes: (value: T) => boolean;
  /**
   * Where the model puts the boundary, as a real quality: the predicate is expected to hold at
   * qualities up to it and to fail above. +Infinity when the model cannot say (no probe yet).
   */
  predict: (bracket: Bracket<T>) => number;
  /** Probes already made, not counted as measurements. */
  known?: readonly Probe<T>[];
  /**
   * A value that answers the search where it stands, known or measured: the search returns with
   * it as `settled`, the bracket left as it is. For a caller whose measurements are candidate
   * answers, one of which can be good enough without the exact boundary.
   */
  settles?: (value: T) => boolean;
}

export interface Bracket<T> {
  /** The highest quality probed that passes. */
  passing: Probe<T> | null;
  /** The lowest quality probed that fails. */
  failing: Probe<T> | null;
  /** The failing probe measured before `failing`, for a model that extrapolates from two. */
  previousFailing: Probe<T> | null;
}

export interface Boundary<T> extends Bracket<T> {
  /** Probes measured by the search (known ones not counted). */
  measured: number;
  /** The probe that settled the search (see BoundarySearch.settles), else null. */
  settled: Probe<T> | null;
}

/**
 * Finds the boundary exactly: on return `passing` and `failing` are neighbours on the ladder, or
 * `passing` is the ladder's top, or `failing` its bottom, or a probe settled the search. Every
 * claim rests on a probe.
 */
export async function searchQualityBoundary<T>(search: BoundarySearch<T>): Promise<Boundary<T>> {
  const { ladder } = search;
  if (ladder.length === 0) throw new Error("searchQualityBoundary needs a non-empty ladder");
  const bracket: Bracket<T> = { passing: null, failing: null, previousFailing: null };
  const record = (probe: Probe<T>) => {
    if (probe.passes) {
      if (bracket.passing === null || probe.quality > bracket.passing.quality) bracket.passing = probe;
    } else if (bracket.failing === null || probe.quality < bracket.failing.quality) {
      bracket.previousFailing = bracket.failing;
      bracket.failing = probe;
    }
  };
  for (const probe of search.known ?? []) record(probe);
  let measured = 0;
  const settles = (probe: Probe<T>) => search.settles?.(probe.value) === true;
  const settledBefore = search.known?.find(settles);
  if (settledBefore !== undefined) return { ...bracket, measured, settled: settledBefore };
  let surprises = 0;
  let bisected = false;
  for (;;) {
    // The bracket as ladder positions: -1 and ladder.length stand for a side not probed yet.
    const low = bracket.passing === null ? -1 : ladder.indexOf(bracket.passing.quality);
    const high = bracket.failing === null ? ladder.length : ladder.indexOf(bracket.failing.quality);
    if (high - low <= 1) return { ...bracket, measured, settled: null };
    const predicted = search.predict(bracket);
    const open = low === -1 || high === ladder.length;
    const allowance = open && !bisected && consistent(ladder, low, high, predicted) ? OPEN_SIDE_SURPRISES : SURPRISES_BEFORE_BISECTION;
    const next = surprises >= allowance ? { position: Math.floor((low + high) / 2), expectPass: null } : modelProbe(ladder, low, high, predicted);
    const quality = ladder[next.position]!;
    checkDeadline("The quality search");
    const value = await search.measure(quality);
    measured++;
    const passes = search.passes(value);
    const probe = { quality, value, passes };
    record(probe);
    if (settles(probe)) return { ...bracket, measured, settled: probe };
    if (next.expectPass !== null) surprises = passes === next.expectPass ? 0 : surprises + 1;
    else {
      bisected = true;
      surprises = Math.min(surprises, SURPRISES_BEFORE_BISECTION - 1);
    }
  }
}

// The model probes where its outcome is least certain, so one surprise is expected; a model
// surprised twice running is wrong, and bisection steps bound what it costs: after one, the
// model's next surprise brings another, so a wrong model costs at most about twice a bisection.
const SURPRISES_BEFORE_BISECTION = 2;

// Except while one side of the bracket is still open, where every probe so far fell on one side
// and so every surprise was the same one: the image's curve is flatter (or steeper) than the
// model's prior, and each probe on that side corrects the model's slope. Bisecting there jumps to
// the middle of everything beyond the edge: a flat JPEG sample (auto:good, aim 70) went q70 82.4,
// q58 78.2 and then q28 58.8 and q34 62.7, below an answer between q40 and q46 that the model's
// own next moves (12 qualities at most each, see withinReach) reach in two. So on an open side the
// model keeps going for up to this many surprises, as long as its prediction stays consistent with
// the probes (a model that still puts the boundary beyond a probe that contradicts it has not
// learnt from them, and is bisected after two as before), and only until the first bisection.
// Each of those probes narrows the bracket by a rung at least, so the worst case, a boundary at the
// ladder's far end approached by a model that creeps one rung a probe, costs at most
// OPEN_SIDE_SURPRISES - SURPRISES_BEFORE_BISECTION = 2 probes more than bisecting after two (on a
// 17-rung ladder, 9 against 7). On the corpus (auto:good, 72 searches) it saved 12 probes, and cost
// one on each of the two searches whose answer lay 50 qualities below the first probe, where the
// model's 12-quality moves took four surprises to get there (cairo #15 WebP).
const OPEN_SIDE_SURPRISES = 4;

/** Whether the predicted boundary agrees with the probes: at or above the passing one, below the failing one. */
function consistent(ladder: readonly number[], low: number, high: number, predicted: number): boolean {
  return (low === -1 || predicted >= ladder[low]!) && (high === ladder.length || predicted < ladder[high]!);
}

// The boundary needs a passing probe and a failing one next to it. The model's predicted
// boundary position b sits between them: the probe is the side of b whose outcome is less
// certain (the one nearer the prediction), so that, the model holding, the next probe on the
// other side ends the search. Next to a known side, that is always the other one.
function modelProbe(ladder: readonly number[], low: number, high: number, predicted: number): { position: number; expectPass: boolean | null } {
  if (!Number.isFinite(predicted)) return { position: predicted > 0 ? high - 1 : low + 1, expectPass: null };
  // Fractional ladder position of the predicted boundary: b + fraction, b the last passing position.
  let below = -1;
  while (below + 1 < ladder.length && ladder[below + 1]! <= predicted) below++;
  const fraction =
    below < 0 || below + 1 >= ladder.length ? 0.5 : (predicted - ladder[below]!) / (ladder[below + 1]! - ladder[below]!);
  const boundary = Math.min(high - 1, Math.max(low, below));
  if (boundary === low) return { position: low + 1, expectPass: false };
  if (boundary === high - 1) return { position: high - 1, expectPass: true };
  return fraction > 0.5 ? { position: boundary + 1, expectPass: false } : { position: boundary, expectPass: true };
}

export interface FitOutcome {
  bytes: Uint8Array;
  quality: number;
  /** Encodes made by the search (a `known` encode is not counted). */
  encodes: number;
}

export interface FitSearch {
  /** The qualities the search may pick, ascending; the last entry is the ceiling. */
  ladder: readonly number[];
  /** An encode already made at the ceiling. */
  known?: Uint8Array;
  /** The encoder's size curve (see SIZE_MODELS). */
  model: SizeModel;
}

export async function fitToBytes(encodeAt: (quality: number) => Promise<Uint8Array>, maxBytes: number, search: FitSearch): Promise<FitOutcome> {
  const { ladder, known, model } = search;
  const ceiling = ladder.at(-1);
  if (ceiling === undefined) throw new Error("fitToBytes needs a non-empty ladder");
  const fits = (bytes: Uint8Array) => bytes.byteLength <= maxBytes;
  const boundary = await searchQualityBoundary({
    ladder,
    measure: encodeAt,
    passes: fits,
    predict: (bracket) => predictBoundary(bracket, maxBytes, model),
    known: known ? [{ quality: ceiling, value: known, passes: fits(known) }] : [],
  });
  if (boundary.passing === null) {
    const smallest = boundary.failing!;
    throw new ProblemError(
      "max_bytes_unreachable",
      `The smallest output reached is ${smallest.value.byteLength} bytes (quality ${smallest.quality}), above max_bytes ${maxBytes}.`,
      { extensions: { max_bytes: maxBytes, smallest_bytes: smallest.value.byteLength, lowest_quality_tried: smallest.quality } },
    );
  }
  return { bytes: boundary.passing.value, quality: boundary.passing.quality, encodes: boundary.measured };
}

/** Lossy formats: every quality from the search floor up to the requested one. */
export function qualityLadder(ceiling: number): number[] {
  const ladder: number[] = [];
  for (let q = Math.min(MIN_SEARCH_QUALITY, ceiling); q <= ceiling; q++) ladder.push(q);
  return ladder;
}

type SizeBracket = Bracket<Uint8Array>;
type SizeProbe = Probe<Uint8Array>;

function coordinateOf(model: SizeModel, quality: number): number {
  if (model.coordinate === "quality") return quality;
  return -Math.log(quality < 50 ? 5000 / quality : Math.max(1, 200 - 2 * quality));
}

function qualityAt(model: SizeModel, coordinate: number): number {
  if (model.coordinate === "quality") return coordinate;
  const scale = Math.exp(-coordinate);
  return scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
}

// Two misses a few qualities apart measure a slope mostly made of noise: extrapolating a
// shallow one sends the next probe far below the boundary. Measured slopes are kept within
// this factor of the prior.
const SLOPE_RANGE = 2;

// Extrapolating from misses, the prediction is moved this many qualities down: a probe that fits
// brackets the boundary, and interpolating inside a bracket is far more accurate than extrapolating.
// On the bench's photos it saved 0.6 encodes a search against none, 0.5 against a whole step.
const EXTRAPOLATION_MARGIN = 0.5;

// The quality where the size line is predicted to reach `maxBytes`: through the bracket when
// there is one, else from the lowest miss along the slope of the two lowest misses, or the prior.
function predictBoundary({ passing, failing, previousFailing }: SizeBracket, maxBytes: number, model: SizeModel): number {
  if (failing === null) return Number.POSITIVE_INFINITY;
  if (passing !== null) return crossingQuality(model, passing, failing, maxBytes);
  const prior = model.priorSlope;
  const slope = previousFailing === null ? prior : Math.min(prior * SLOPE_RANGE, Math.max(prior / SLOPE_RANGE, logSlope(model, failing, previousFailing)));
  return qualityAt(model, coordinateOf(model, failing.quality) - Math.log(failing.value.byteLength / maxBytes) / slope) - EXTRAPOLATION_MARGIN;
}

// The quality where the line through two probes reaches `bytes`.
function crossingQuality(model: SizeModel, low: SizeProbe, high: SizeProbe, bytes: number): number {
  const slope = logSlope(model, low, high);
  if (!(slope > 0)) return (low.quality + high.quality) / 2;
  return qualityAt(model, coordinateOf(model, low.quality) + Math.log(bytes / low.value.byteLength) / slope);
}

function logSlope(model: SizeModel, low: SizeProbe, high: SizeProbe): number {
  return Math.log(high.value.byteLength / low.value.byteLength) / (coordinateOf(model, high.quality) - coordinateOf(model, low.quality));
}
