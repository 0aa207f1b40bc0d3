// quality: "auto": the smallest output that scores at least the level's SSIMULACRA 2 target,
// over the encoder's quality and, unless the request names it, its chroma (4:2:0 or 4:4:4 for
// JPEG and AVIF, plain or sharp RGB-to-YUV for WebP): 4:2:0 caps the score of colourful, smooth
// pictures below what any quality reaches (a wallpaper gradient scored 66 at JPEG q100 4:2:0).
//
// Scoring the whole output costs several encodes of it, so the search first probes a sample: a
// mosaic of tiles spread over the image, cut on the 16-pixel grid JPEG's 4:2:0 blocks and WebP's
// macroblocks use, so each tile of the encoded mosaic holds the blocks the full encode makes there
// (quality/sample-mosaic.ts). Each probe encodes (WebP's tile by tile, see SAMPLE) and scores the
// mosaic, its score turned into the
// whole output's by a measured stretch (wholeScoreEstimate). Per chroma, the sample search brackets
// where the estimate reaches the aim on every other rung of a ladder, each move at most
// MAX_SAMPLE_STEP qualities, and interpolates inside the bracket; the chroma whose sample costs
// fewer bytes there is tried first.
//
// Then the whole image is encoded and scored at that answer, and the search goes on with whole
// scores: the stretch holds on photos but not on shaded graphics and charts, whose banding only
// the whole image's coarse scales see, nor on WebP, whose sample-to-whole gap differs. A whole
// score short of the target moves up (the sample search again, aimed as far over as the estimate
// overshot), the first one more than its format's landing slack above it moves down (a later one
// more than LANDING_LIMIT), and once a whole output below and one above bracket the target the
// next quality is interpolated between them, to the single quality step. So the answer reaches
// the target and lands at most LANDING_LIMIT above it, unless the quality below it was tried and
// fell short; a 4:2:0 output that cannot reach it at the ceiling hands over to the other chroma.
// Every score reported is the output's own.
//
// A target no setting reaches is not answered at the ceiling by default: the answer is the
// smallest output within one point of the highest score any setting reached, with targetMet false.
//
// The search answers inside the call's deadline (SearchBudget): before each encode it checks that
// the step, costed from the steps it made (StepBudget), still fits with the answer's time kept in
// reserve. When it does not, the search answers what it has: the smallest whole output reaching
// the target, else the level's typical quality encoded whole (unscored unless it was already), with
// targetMet false. A busy machine gets a coarser answer, never a processing_timeout for work done.
//
// The sample search is searchQualityBoundary (fit-to-bytes.ts) with the predicate "the output's
// score, estimated from the sample's, is below the aim", which holds up to the boundary on an
// ascending ladder, and the model the PDF floors use too (quality/predict-quality.ts), which starts
// at the level's typical quality for the format and follows the prior curve between probes.
import sharp, { type Sharp } from "sharp";
import type { OutputChroma } from "../../contracts/image-options.ts";
import { QUALITY_LEVEL_TARGETS, type QualityLevel } from "../../contracts/perceptual-quality.ts";
import { perceptualScore, perceptualScorer } from "../quality/perceptual-score.ts";
import { predictQuality } from "../quality/predict-quality.ts";
import type { RawImage } from "../quality/raw-image.ts";
import { blockSample, DEFAULT_TILE, mosaicTiles, wholeScoreEstimate, type LossyFormat } from "../quality/sample-mosaic.ts";
import { qualityAtScore, type ScoreCurve } from "../quality/score-curve.ts";
import type { WebpCandidate } from "../quality/webp-candidate.ts";
import { currentDeadline } from "../worker-pool/deadline.ts";
import { encode, type EncoderOptions } from "./encode.ts";
import { searchQualityBoundary } from "./fit-to-bytes.ts";

export interface PerceptualOutcome {
  bytes: Uint8Array;
  quality: number;
  chroma: OutputChroma;
  /** The output's SSIMULACRA 2, scored whole; null for a fallback the deadline left no time to score. */
  score: number | null;
  /** Whether `score` reaches the level's target. */
  targetMet: boolean;
  /** Encodes made: the sample's probes and the whole encodes. */
  encodes: number;
}

export interface PerceptualSearch {
  format: LossyFormat;
  level: QualityLevel;
  /** The encoder's settings; a `chroma_subsampling` other than null is kept, null lets the search choose. */
  encoder: EncoderOptions;
  /** The highest quality the search may answer (100 unless something else caps it). */
  ceiling?: number;
  /** Told of each encode the search makes, with where its time went (scripts/bench-quality/profile-auto.ts). */
  onStep?: (step: SearchStep) => void;
  /** When the search must have answered: the current call's deadline (deadline.ts) unless given. */
  budget?: SearchBudget;
}

/** A deadline and the clock it is read on (a test passes its own, which its encoder moves). */
export interface SearchBudget {
  deadlineAt: number;
  now: () => number;
}

/** One encode of the search: a probe of the sample or a whole output, each encoded, decoded and scored. */
export interface SearchStep {
  of: "sample" | "whole";
  chroma: OutputChroma;
  quality: number;
  /** The whole output's score, or the sample's estimate of it. */
  score: number;
  bytes: number;
  encodeMs: number;
  /** On the main thread; a WebP probe is decoded by the score worker, within scoreMs. */
  decodeMs: number;
  scoreMs: number;
}

/** Encodes the whole image at a quality and chroma, as the output. */
export type WholeEncoder = (quality: number, chroma: OutputChroma) => Promise<Uint8Array>;

// Typical SSIMULACRA 2 against quality per encoder with this engine's settings (mozjpeg tables,
// WebP effort 4, AVIF effort 2) at the chroma each searches first (4:2:0; AVIF 4:4:4): medians of
// the whole outputs of four corpus photos at 1600 px (exif-orientation Landscape_0 and Portrait_0,
// fox, kimono). The model's prior, so the first probe lands near the answer; piecewise linear
// between the points.
const SCORE_CURVES: Record<LossyFormat, ScoreCurve> = {
  jpeg: [[10, -10], [20, 20], [40, 52], [60, 63], [70, 70], [80, 79], [90, 86], [100, 94]],
  webp: [[10, 15], [20, 33], [40, 50], [60, 60], [70, 65], [80, 72.5], [90, 84], [100, 92]],
  avif: [[10, -2], [20, 20], [30, 38], [40, 55], [50, 67.5], [60, 76.5], [70, 82.5], [80, 86.5], [90, 91.5], [100, 100]],
};

/** The quality the format typically needs to reach the level: the search's first guess, and the answer where no score is possible (an animation). */
export function typicalQuality(format: LossyFormat, level: QualityLevel): number {
  return Math.round(Math.min(100, Math.max(1, curveQuality(format, QUALITY_LEVEL_TARGETS[level]))));
}

function curveQuality(format: LossyFormat, score: number): number {
  return qualityAtScore(SCORE_CURVES[format], score);
}

/**
 * The chroma settings the search may use, the one searched first first: the named one only, else
 * the format's two. AVIF starts at 4:4:4, which answered both images of the bench at about half
 * of q76's bytes (4:2:0 needed far higher qualities there); JPEG and WebP at 4:2:0.
 */
export function chromaChoices(format: LossyFormat, named: OutputChroma | null): OutputChroma[] {
  if (named !== null) return [named];
  if (format === "avif") return ["4:4:4", "4:2:0"];
  return format === "webp" ? ["4:2:0", "sharp_yuv"] : ["4:2:0", "4:4:4"];
}

// An image's first whole output may score this much above the target before a lower quality is
// tried (a probe that is the output: below); after a move, up to LANDING_LIMIT (issue #25's
// limit). On images whose score hardly moves with quality (shaded graphics: cairo #12 WebP scored
// 72.6 at q76 and 71.5 at q64) the prior curve moved the search down a few qualities at a time,
// five whole outputs of 2.6 MP for 9% of the bytes.
//
// WebP takes the limit itself. Aimed at 70 by the sample, its first whole output scored 66.9 to
// 73.7 on the corpus photos, and a window of 2.5 sent half of them to a second whole output (a
// WebP encode, a decode and a score, about one more q76 request), three of them from 72.6-72.8;
// that kept its median request over 3x q76's (3.2-3.4x). With 4 it read 2.59x, for 3.7% more
// bytes (origin/quality/README.md). JPEG and AVIF keep 2.5: their byte targets against q76 (0.85,
// 0.65) and JPEG's at equal quality (0.80, read 0.796) leave no room for answers 4 above, and
// their time targets are met without it.
//
// An image no larger than its sample (every probe is the output) takes the limit in every format.
// There a second probe costs about a q76 request by itself (a 0.14 MP JPEG: encode 9-27 ms, score
// 7-16, against a q76 encode of 10-19) to save a tenth of 15 KB: JPEG S2 JPX #17 and #22
// landed at q70, 72.1 and 72.3, then probed q64, which took them to 3.35x and 2.90x q76's time
// for 1.5 KB each (origin/quality/README.md).
const LANDING_SLACK: Record<LossyFormat, number> = { jpeg: 2.5, webp: 4, avif: 2.5 };
const LANDING_LIMIT = 4;

/** How far above the target the first whole output, or a probe that is the output, is taken as the answer. */
export function landingSlack(format: LossyFormat, probeIsOutput: boolean): number {
  return probeIsOutput ? LANDING_LIMIT : LANDING_SLACK[format];
}

// Searches aim this far above the target, so an answer whose estimate errs a little still reaches it.
const AIM_MARGIN = 1;
// Whole encodes (each with a whole score) one search may make: the first answer, a move up or
// down, and two steps inside a bracket.
const MAX_WHOLE_OUTPUTS = 5;
// A move down from whole outputs goes at most this many qualities at once: extrapolated through
// two outputs on a flat curve (cairo #15 JPEG at 1600 px: 73.7 at q56, 73.1 at q50) the line
// pointed 24 qualities down, to 61.7, and the whole-output cap ended the search 4.1 above the target.
const MAX_WHOLE_STEP = 12;
// Qualities above the level's typical one at which the first chroma's answer is taken without
// trying the other: at the same quality 4:4:4 JPEG and sharp-YUV WebP cost more bytes, so they can
// only win where 4:2:0 needs a quality well above the usual, its chroma holding the score down;
// AVIF 4:2:0 scores lower than 4:4:4 at the same quality and needs far more of it near the usual.
const CHROMA_HEADROOM = 10;
// Outputs within this of the best score count as reaching it, when no setting reaches the target.
const BEST_EFFORT_TOLERANCE = 1;

interface Scored {
  /** What the encoder wrote: one file, or one per tile of a sample encoded tile by tile. */
  pieces: Uint8Array[];
  /** Their bytes together. */
  size: number;
  score: number;
}

interface WholeOutput {
  bytes: Uint8Array;
  score: number;
  quality: number;
  chroma: OutputChroma;
}

interface SampleAnswer {
  chroma: OutputChroma;
  /** The lowest ladder quality whose estimate reaches the aim; null when even the ladder's top does not. */
  quality: number | null;
}

/**
 * Finds the smallest output reaching the level's target. `reference` is the still image the
 * encoder gets (after flattening); `encodeImage` encodes it whole as the output.
 */
export async function searchPerceptualQuality(reference: Sharp, encodeImage: WholeEncoder, search: PerceptualSearch): Promise<PerceptualOutcome> {
  const { format, level, encoder } = search;
  const { channels } = await reference.metadata();
  const pixels = await rawRgb(reference);
  const sample = sampleOf(pixels, format);
  const whole = sample === pixels;
  // A WebP sample is encoded tile by tile (SAMPLE), and laid back together by the score worker.
  const sampleTiles = whole || format !== "webp" ? null : mosaicTiles(sample, SAMPLE.webp.tile);
  // A probe of the whole image is the output only when it is encoded as the output would be:
  // colour (a grey image is scored as RGB) and without metadata.
  const probeIsOutput = whole && encoder.strip_metadata && (channels ?? 3) >= 3;
  const estimate = (sampleScore: number) => (whole ? sampleScore : wholeScoreEstimate(format, sampleScore));
  const target = QUALITY_LEVEL_TARGETS[level];
  const ceiling = search.ceiling ?? 100;
  const ladder = qualitiesUpTo(ceiling);
  const slack = landingSlack(format, probeIsOutput);
  const probes = new Map<OutputChroma, Map<number, Scored>>();
  let encodes = 0;
  const deadlineAt = currentDeadline();
  const budget = new StepBudget(search.budget ?? (deadlineAt === undefined ? null : { deadlineAt, now: Date.now }), (pixels.width * pixels.height) / (sample.width * sample.height));
  // Each reference's side of the metric is computed once for all of this search's scores. A
  // whole image's scores are split across both lanes, its finest scale on one and the coarser ones
  // on the other, which scores it in about 70% of the time (1600x1067: 178 ms to 128) when the
  // lanes are free, as they are while the search waits for a whole score. A sample's score stays
  // on one lane: under 0.3 MP a split saves nothing.
  const scoreSample = perceptualScorer(sample);
  const scoreWhole = whole ? scoreSample : perceptualScorer(pixels, { split: true });
  // Each reference's side of the metric (about half of its first score) is prepared on its own
  // lane while the first probe is encoded, the whole image's (its finest scale) while the sample is
  // probed and the first whole output encoded, its coarser scales while that output is encoded
  // (wholeAt). A failure surfaces at the reference's first score.
  scoreSample.prepare().catch(() => undefined);
  if (!whole) scoreWhole.prepare().catch(() => undefined);

  const encodeAndScore = async <Candidate>(
    of: SearchStep["of"],
    chroma: OutputChroma,
    quality: number,
    encodeIt: () => Promise<Uint8Array[]>,
    candidateOf: (pieces: Uint8Array[]) => Promise<Candidate>,
    score: (candidate: Candidate) => Promise<number>,
  ): Promise<Scored> => {
    budget.check(of, outputs.some((output) => output.score >= target));
    const started = performance.now();
    const clockedAt = budget.now();
    const pieces = await encodeIt();
    encodes++;
    const encoded = performance.now();
    const encodeSpent = budget.now() - clockedAt;
    const candidate = await candidateOf(pieces);
    const decodedAt = performance.now();
    const scored = { pieces, size: pieces.reduce((total, piece) => total + piece.byteLength, 0), score: await score(candidate) };
    budget.spent(of, encodeSpent, budget.now() - clockedAt);
    search.onStep?.({ of, chroma, quality, score: scored.score, bytes: scored.size, encodeMs: encoded - started, decodeMs: decodedAt - encoded, scoreMs: performance.now() - decodedAt });
    return scored;
  };

  const probe = async (chroma: OutputChroma, quality: number): Promise<Scored> => {
    const known = probes.get(chroma)?.get(quality);
    if (known !== undefined) return known;
    const settings = { ...encoder, chroma_subsampling: chroma, strip_metadata: true };
    const encodePiece = (piece: RawImage) => encode(rawInput(piece), { format, lossless: false, quality }, settings);
    // The score worker decodes a WebP probe itself (quality/webp-candidate.ts).
    const candidateOf = async (pieces: Uint8Array[]): Promise<RawImage | WebpCandidate> =>
      format === "webp"
        ? { webp: pieces, tile: sampleTiles === null ? null : SAMPLE.webp.tile, width: sample.width, height: sample.height, channels: sample.channels }
        : rawRgb(sharp(pieces[0]), sample.channels);
    const scored = await encodeAndScore(
      "sample",
      chroma,
      quality,
      () => Promise.all(sampleTiles === null ? [encodePiece(sample)] : sampleTiles.map(encodePiece)),
      candidateOf,
      async (candidate) => estimate(await scoreSample(candidate)),
    );
    if (!probes.has(chroma)) probes.set(chroma, new Map());
    probes.get(chroma)!.set(quality, scored);
    return scored;
  };

  /** Whether a whole score reaches the target and lands at most the format's landing slack above it. */
  const landsOnTarget = (score: number): boolean => score >= target && score - target <= slack;

  /**
   * Where the estimate reaches `aim` over `rungs` (null when even the top does not), probes kept
   * across calls: the bracket is found on every other rung, and the answer interpolated inside it
   * by the model, since the whole outputs that follow correct it to the single quality step anyway.
   */
  const sampleSearch = async (chroma: OutputChroma, aim: number, rungs: number[]): Promise<number | null> => {
    if (rungs.length === 0) return null;
    const coarse = coarseRungs(rungs);
    const known = [...(probes.get(chroma) ?? [])].flatMap(([quality, value]) => (coarse.includes(quality) ? [{ quality, value, passes: value.score < aim }] : []));
    const probed = () => [...(probes.get(chroma)?.keys() ?? [])];
    const boundary = await searchQualityBoundary<Scored>({
      ladder: coarse,
      measure: (quality) => probe(chroma, quality),
      passes: ({ score }) => score < aim,
      predict: (bracket) => withinReach(predictQuality(bracket, aim, SCORE_CURVES[format]), probed()),
      known,
      // A probe that is the output is answered where it lands, as a first whole output is: probing on
      // to the exact bracket bought nothing the landing rule then took (WebP S2 JPX #22 landed at q64,
      // 71.1, then probed q52 and q58 below the target).
      settles: probeIsOutput ? ({ score }) => landsOnTarget(score) : undefined,
    });
    const { passing, failing, settled } = boundary;
    if (settled !== null) return settled.quality;
    if (failing === null) return null;
    if (passing === null) return failing.quality;
    const predicted = Math.round(predictQuality(boundary, aim, SCORE_CURVES[format]));
    return Math.min(failing.quality, Math.max(passing.quality + 1, predicted));
  };

  const outputs: WholeOutput[] = [];
  const wholeAt = async (chroma: OutputChroma, quality: number): Promise<WholeOutput> => {
    const done = outputs.find((output) => output.chroma === chroma && output.quality === quality);
    if (done !== undefined) return done;
    let output: WholeOutput;
    if (probeIsOutput) {
      const { pieces, score } = await probe(chroma, quality);
      output = { bytes: pieces[0]!, score, quality, chroma };
    } else {
      // The sample's probes are done, so the lane they used prepares the whole image's coarser scales while the output is encoded.
      if (outputs.length === 0) scoreWhole.prepareOtherLane().catch(() => undefined);
      const { pieces, score } = await encodeAndScore("whole", chroma, quality, async () => [await encodeImage(quality, chroma)], async ([bytes]) => rawRgb(sharp(bytes), pixels.channels), scoreWhole);
      output = { bytes: pieces[0]!, score, quality, chroma };
    }
    outputs.push(output);
    return output;
  };

  // The sample's answer for each chroma in chromaChoices' order. After 4:2:0 (JPEG and WebP) the
  // richer chroma waits for 4:2:0's whole outputs (richerChroma): a sample of false-colour maps
  // and illustrations misjudges 4:2:0 both ways (S2 JPX #19's sample said no quality reached 69
  // where q76 scored 71 whole), and only a landing above the typical quality by CHROMA_HEADROOM, or
  // a ceiling that cannot reach, gives the richer chroma a chance to win. After AVIF's 4:4:4,
  // 4:2:0 costs less at the same quality and is searched over the whole ladder, unless 4:4:4
  // answers near the typical quality. The chroma whose sample answer costs fewer bytes goes whole first.
  const choices = chromaChoices(format, encoder.chroma_subsampling);
  const typical = typicalQuality(format, level);
  try {
    return await searchWithin();
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    return answerInTime();
  }

  /** What the search has when the deadline stops it: the smallest output reaching the target, else the level's typical quality. */
  async function answerInTime(): Promise<PerceptualOutcome> {
    const met = outputs.filter((output) => output.score >= target);
    if (met.length > 0) return answerOf(met, true);
    const chroma = choices[0]!;
    const quality = Math.min(ceiling, typical);
    const made = outputs.find((output) => output.chroma === chroma && output.quality === quality);
    if (made !== undefined) return answerOf([made], false);
    const bytes = await encodeImage(quality, chroma);
    encodes++;
    return { bytes, quality, chroma, score: null, targetMet: false, encodes };
  }

  function answerOf(eligible: WholeOutput[], targetMet: boolean): PerceptualOutcome {
    const answer = eligible.reduce((a, b) => (b.bytes.byteLength < a.bytes.byteLength ? b : a));
    return { bytes: answer.bytes, quality: answer.quality, chroma: answer.chroma, score: answer.score, targetMet, encodes };
  }

  async function searchWithin(): Promise<PerceptualOutcome> {
    const richerAfterWhole = choices.length > 1 && choices[0] === "4:2:0";
    const answers: SampleAnswer[] = [];
    for (const chroma of choices) {
      const first = answers[0]?.quality ?? null;
      if (answers.length > 0 && (richerAfterWhole || (first !== null && first <= typical + CHROMA_HEADROOM))) break;
      answers.push({ chroma, quality: await sampleSearch(chroma, target + AIM_MARGIN, ladder) });
    }
    const reaching = answers.filter((answer): answer is SampleAnswer & { quality: number } => answer.quality !== null);
    // Chromas are compared by their sample's bytes at their answers, between probes interpolated in
    // the logarithm of the bytes (which grows about linearly with quality), past the last probe taken from it.
    const sampleBytes = ({ chroma, quality }: { chroma: OutputChroma; quality: number }): number => {
      const sampled = [...probes.get(chroma)!].sort(([a], [b]) => a - b);
      const above = sampled.find(([probed]) => probed >= quality);
      const below = sampled.findLast(([probed]) => probed <= quality);
      if (above === undefined || below === undefined || above[0] === below[0]) return (above ?? below)![1].size;
      const t = (quality - below[0]) / (above[0] - below[0]);
      return Math.exp(Math.log(below[1].size) + t * (Math.log(above[1].size) - Math.log(below[1].size)));
    };
    reaching.sort((a, b) => sampleBytes(a) - sampleBytes(b));

    let next: { chroma: OutputChroma; quality: number } | null;
    if (reaching.length > 0) {
      next = reaching[0]!;
    } else if (richerAfterWhole) {
      // 4:2:0's sample reached the aim nowhere: one whole output at the typical quality tells whether the sample misjudged it.
      next = { chroma: choices[0]!, quality: Math.min(ceiling, typical) };
    } else {
      // No chroma reaches the aim on the sample: the one scoring highest at the top, at the lowest quality within a point of it.
      const tops = choices.map((chroma) => ({ chroma, score: probes.get(chroma)!.get(ceiling)!.score }));
      const best = tops.reduce((a, b) => (b.score > a.score ? b : a));
      next = { chroma: best.chroma, quality: (await sampleSearch(best.chroma, best.score - BEST_EFFORT_TOLERANCE, ladder)) ?? ceiling };
    }

    // A sample that is the image itself scored whole outputs: the lowest quality among them that
    // reaches the target lands, when within the landing slack, without an encode between probes.
    if (probeIsOutput && next !== null) {
      const { chroma } = next;
      const landed = [...probes.get(chroma)!].filter(([, { score }]) => score >= target).sort(([a], [b]) => a - b)[0];
      if (landed !== undefined && landsOnTarget(landed[1].score)) next = { chroma, quality: landed[0] };
    }

    while (next !== null && outputs.length < MAX_WHOLE_OUTPUTS) {
      const tried = outputs.length;
      const output = await wholeAt(next.chroma, next.quality);
      // Pointed back at an output already made: nothing new to learn.
      if (outputs.length === tried) break;
      next = await nextTry(output);
    }

    /** Where to go after a whole output: on along its chroma's whole scores, else to the richer chroma; null when the search is done. */
    async function nextTry(last: WholeOutput): Promise<{ chroma: OutputChroma; quality: number } | null> {
      if (richerAfterWhole && last.chroma === choices[0] && last.score < target && sampleNeverReached(last)) return richerChroma(null);
      const along = await alongChroma(last);
      if (along !== null || !richerAfterWhole || last.chroma !== choices[0]) return along;
      const landed = metAscending(last.chroma)[0];
      return landed !== undefined && landed.quality > typical + CHROMA_HEADROOM ? richerChroma(landed.quality) : null;
    }

    /**
     * Whether a whole output below the target confirms the sample's verdict that its chroma reaches
     * the aim at no quality: the sample's top score, moved by as much as the whole output beat the
     * sample's estimate at its quality, still falls short.
     */
    function sampleNeverReached(output: WholeOutput): boolean {
      if (answers.find((answer) => answer.chroma === output.chroma)?.quality !== null) return false;
      const sampled = probes.get(output.chroma)!;
      const top = sampled.get(ceiling)!.score;
      const nearest = nearestQuality([...sampled.keys()], output.quality);
      return top + (output.score - sampled.get(nearest)!.score) < target;
    }

    /**
     * The richer chroma's answer on the sample, searched once: up to `upTo`, 4:2:0's landing (above
     * it the richer one costs more bytes at any quality), taken only when its sample costs fewer
     * bytes than 4:2:0's there; over the whole ladder when 4:2:0 reached the target nowhere.
     */
    async function richerChroma(upTo: number | null): Promise<{ chroma: OutputChroma; quality: number } | null> {
      const richer = choices[1]!;
      if (answers.some((answer) => answer.chroma === richer)) return null;
      if (upTo !== null && !costsLessAtAim(await probe(richer, upTo), upTo)) {
        answers.push({ chroma: richer, quality: null });
        return null;
      }
      const quality = await sampleSearch(richer, target + AIM_MARGIN, upTo === null ? ladder : ladder.filter((rung) => rung <= upTo));
      answers.push({ chroma: richer, quality });
      if (quality === null) return null;
      if (upTo !== null && sampleBytes({ chroma: richer, quality }) >= sampleBytes({ chroma: choices[0]!, quality: upTo })) return null;
      return { chroma: richer, quality };
    }

    /**
     * Whether the richer chroma's sample at 4:2:0's landing, `atLanding`, may reach the aim for
     * fewer bytes than 4:2:0's there: it must score at least the aim, and moved down the prior curve
     * to the aim, its bytes falling as 4:2:0's sample's fall with quality, cost less. On the corpus
     * 4:4:4 JPEG never won where 4:2:0 reached (issue19971 #218 at q84, cairo #12 at q83): its
     * search there cost four probes for nothing.
     */
    function costsLessAtAim(atLanding: Scored, upTo: number): boolean {
      const aim = target + AIM_MARGIN;
      if (atLanding.score < aim) return false;
      const sampled = [...probes.get(choices[0]!)!].sort(([a], [b]) => a - b);
      const low = sampled[0]!;
      const high = sampled[sampled.length - 1]!;
      if (high[0] === low[0]) return true;
      const logBytesPerQuality = (Math.log(high[1].size) - Math.log(low[1].size)) / (high[0] - low[0]);
      const drop = Math.max(0, curveQuality(format, atLanding.score) - curveQuality(format, aim));
      return atLanding.size * Math.exp(-logBytesPerQuality * drop) < sampleBytes({ chroma: choices[0]!, quality: upTo });
    }

    /** The chroma's whole outputs that reach the target, lowest quality first. */
    function metAscending(chroma: OutputChroma): WholeOutput[] {
      return outputs.filter((output) => output.chroma === chroma && output.score >= target).sort((a, b) => a.quality - b.quality);
    }

    /** Where to go after a whole output, from the whole scores of its chroma: null when the search is done. */
    async function alongChroma(last: WholeOutput): Promise<{ chroma: OutputChroma; quality: number } | null> {
      const { chroma } = last;
      const above = metAscending(chroma)[0];
      const below = outputs.filter((output) => output.chroma === chroma && output.score < target).sort((a, b) => b.quality - a.quality)[0];
      const aim = target + AIM_MARGIN;
      const allowed = outputs.length > 1 ? LANDING_LIMIT : slack;
      if (above !== undefined && (above.score - target <= allowed || above.quality <= 1)) return null;
      if (above !== undefined && below !== undefined) {
        if (below.quality >= above.quality) return null;
        if (above.quality - below.quality <= 1) return null;
        return { chroma, quality: between(below, above, aim) };
      }
      if (above !== undefined) return { chroma, quality: Math.max(1, above.quality - MAX_WHOLE_STEP, Math.min(above.quality - 1, Math.round(downFrom(chroma, aim)))) };
      if (below!.quality < ceiling) return { chroma, quality: Math.min(ceiling, Math.max(below!.quality + 1, Math.round(alongCurve(below!, aim)))) };
      // This chroma cannot reach it at the ceiling: the other one, if its sample reached the target.
      const other = reaching.find((answer) => answer.chroma !== chroma && !outputs.some((output) => output.chroma === answer.chroma));
      if (other !== undefined) return other;
      // A chroma the sample search left out (4:2:0 looked typical there) is searched now.
      const unsearched = choices.find((choice) => !answers.some((answer) => answer.chroma === choice));
      if (unsearched === undefined) return null;
      const quality = await sampleSearch(unsearched, target + AIM_MARGIN, ladder);
      answers.push({ chroma: unsearched, quality });
      return quality === null ? null : { chroma: unsearched, quality };
    }

    /**
     * From the outputs above the target down to the aim: through the two lowest (in the prior's
     * offsets, as the sample search extrapolates) when there are two, else along the prior curve
     * shifted through the one. A flat image (base64image #15 WebP: 79.9 at q78, 75.4 at q68) takes
     * the prior's steep slope for a few qualities a step; its own slope goes there in one.
     */
    function downFrom(chroma: OutputChroma, aim: number): number {
      const [lowest, next] = metAscending(chroma);
      if (next === undefined) return alongCurve(lowest!, aim);
      const probe = (output: WholeOutput) => ({ quality: output.quality, value: output, passes: false });
      return predictQuality({ passing: null, failing: probe(lowest!), previousFailing: probe(next) }, aim, SCORE_CURVES[format]);
    }

    /** From one whole output to the aim along the prior curve, shifted to pass through it. */
    function alongCurve(output: WholeOutput, aim: number): number {
      return output.quality + curveQuality(format, aim) - curveQuality(format, output.score);
    }

    const met = outputs.filter((output) => output.score >= target);
    const bestScore = Math.max(...outputs.map((output) => output.score));
    return answerOf(met.length > 0 ? met : outputs.filter((output) => output.score >= bestScore - BEST_EFFORT_TOLERANCE), met.length > 0);
  }
}

/** Thrown by StepBudget when the next step does not fit before the deadline; the search answers what it has. */
class OutOfTime extends Error {}

// Kept back from the deadline for what follows the search: framing and sending the answer.
const ANSWER_MARGIN_MS = 250;
// A whole output before the first is made is costed as the latest sample probe scaled by the
// pixels, and this much over: on a 3840x2400 photo (JPEG eco, load average 17 on the 2 cores) the
// later probes took 115-146 ms and encoded in 11-19 ms for a sample 37.5 times smaller, the whole
// outputs 3.6-4.4 s and encoded in 0.8-2.0 s.
const UNMEASURED_WHOLE_FACTOR = 2;

/**
 * The search's clock: a probe is costed as the latest one (the first also pays the metric's
 * preparation: 1.3 s there), a whole output as the dearest so far, and until a whole output
 * reaches the target the whole encode the fallback would need stays in reserve.
 */
class StepBudget {
  readonly #budget: SearchBudget | null;
  readonly #pixelRatio: number;
  #sampleMs = 0;
  #sampleEncodeMs = 0;
  #wholeMs: number | null = null;
  #wholeEncodeMs: number | null = null;

  /** `pixelRatio`: the image's pixels over the sample's. */
  constructor(budget: SearchBudget | null, pixelRatio: number) {
    this.#budget = budget;
    this.#pixelRatio = pixelRatio;
  }

  now(): number {
    return this.#budget?.now() ?? 0;
  }

  spent(of: SearchStep["of"], encodeMs: number, totalMs: number): void {
    if (of === "sample") {
      this.#sampleMs = totalMs;
      this.#sampleEncodeMs = encodeMs;
    } else {
      this.#wholeMs = Math.max(this.#wholeMs ?? 0, totalMs);
      this.#wholeEncodeMs = Math.max(this.#wholeEncodeMs ?? 0, encodeMs);
    }
  }

  /** Throws OutOfTime unless a step of this kind fits before the deadline, and, until an output reaches the target (`answered`), the fallback's encode after it. */
  check(of: SearchStep["of"], answered: boolean): void {
    if (this.#budget === null) return;
    const scaled = (ms: number) => ms * this.#pixelRatio * UNMEASURED_WHOLE_FACTOR;
    const cost = of === "sample" ? this.#sampleMs : (this.#wholeMs ?? scaled(this.#sampleMs));
    const reserve = answered ? 0 : (this.#wholeEncodeMs ?? scaled(this.#sampleEncodeMs));
    if (this.#budget.deadlineAt - this.#budget.now() <= cost + reserve + ANSWER_MARGIN_MS) throw new OutOfTime();
  }
}

/** The quality strictly between two whole outputs where the line through their scores reaches `aim`. */
function between(below: WholeOutput, above: WholeOutput, aim: number): number {
  const rise = above.score - below.score;
  const t = rise > 0 ? (aim - below.score) / rise : 0.5;
  const quality = Math.round(below.quality + t * (above.quality - below.quality));
  return Math.min(above.quality - 1, Math.max(below.quality + 1, quality));
}

/** The whole output's SSIMULACRA 2 against the still image it was encoded from. */
export async function scoreOutput(reference: Sharp, bytes: Uint8Array): Promise<number> {
  const pixels = await rawRgb(reference);
  return perceptualScore(pixels, await rawRgb(sharp(bytes), pixels.channels));
}

// The sample search moves at most this many qualities from the nearest probe at a time: the
// prior's shape, stretched through one probe far from the target, can point to the ceiling (a WebP
// sample at q76 scoring 54 pointed to q100 where q85 was the answer), and a probe far past the
// answer narrows the bracket little.
const MAX_SAMPLE_STEP = 12;

/** A predicted quality moved to within MAX_SAMPLE_STEP of the nearest probe made. */
export function withinReach(predicted: number, probed: number[]): number {
  if (probed.length === 0 || !Number.isFinite(predicted)) return predicted;
  const nearest = nearestQuality(probed, predicted);
  return Math.min(nearest + MAX_SAMPLE_STEP, Math.max(nearest - MAX_SAMPLE_STEP, predicted));
}

/** The quality among `qualities` (at least one) nearest `quality`. */
function nearestQuality(qualities: number[], quality: number): number {
  return qualities.reduce((a, b) => (Math.abs(b - quality) < Math.abs(a - quality) ? b : a));
}

/** Every other rung, the top kept: the sample search's ladder. */
export function coarseRungs(rungs: number[]): number[] {
  return rungs.filter((_, index) => (rungs.length - 1 - index) % 2 === 0);
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

// The sample's size: a few percent of the image's pixels, so that three probes (each an encode,
// a decode and a score at ~500 ms per megapixel) cost less than two encodes of the whole image at
// ~50 ms per megapixel; never fewer than eight tiles nor more than SAMPLE_MAX_PIXELS. WebP's tiles
// are 128 pixels (see sample-mosaic.ts: its loop filter smears the seams of smaller ones), eight
// of them a larger share of the image, which a probe pays for in time: a whole output the
// misjudged sample sent the search to cost more (fox at 1100 px: three to four whole outputs).
// WebP's tiles are encoded one by one: encoded as one mosaic, below about q80 the
// sample scored up to 11 under the whole output (its tiles' seams, which libwebp's loop filter
// works across, are the likely cause; see sample-mosaic.ts), one by one within the stretch.
//
// A sample of `wholeShare` of the image or more is not cut: the image itself is probed, each probe
// a whole output. JPEG's encode is cheap beside its score, so a probe costs about its pixels'
// scoring, and on small images the sample's misjudgement costs whole outputs on top: the six S2
// JPX maps (about 0.14 MP, a quarter of each in the sample) took 4-6 encodes each, and 1-3 probed
// whole (a probe that lands ending the search), for 3% fewer bytes. An AVIF encode costs several scores, so there the same change took
// the six from 2.6 s to 3.6 s, and only a sample of half the image or more is not cut.
const SAMPLE: Record<LossyFormat, { tile: number; fraction: number; wholeShare: number }> = {
  jpeg: { tile: DEFAULT_TILE, fraction: 0.04, wholeShare: 0.2 },
  webp: { tile: 128, fraction: 0.08, wholeShare: 0.5 },
  avif: { tile: DEFAULT_TILE, fraction: 0.04, wholeShare: 0.5 },
};
const SAMPLE_MIN_TILES = 8;
const SAMPLE_MAX_PIXELS = 512 * 512;

/** The image itself when it is small enough, else a mosaic of tiles spread evenly over it. */
export function sampleOf(image: RawImage, format: LossyFormat): RawImage {
  const { tile, fraction, wholeShare } = SAMPLE[format];
  const pixels = image.width * image.height;
  const budget = Math.min(SAMPLE_MAX_PIXELS, Math.max(SAMPLE_MIN_TILES * tile * tile, pixels * fraction));
  return budget >= pixels * wholeShare ? image : blockSample(image, budget, tile);
}

function rawInput(image: RawImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

/** 8-bit sRGB, RGB or RGBA (as `channels` says, else as the image has alpha), for the metric. */
async function rawRgb(image: Sharp, channels?: 3 | 4): Promise<RawImage> {
  const srgb = image.toColourspace("srgb");
  // A decoded probe's channels are the reference's: no header read before its pixels.
  const wanted = channels ?? ((await image.metadata()).hasAlpha ? 4 : 3);
  const { data, info } = await (wanted === 4 ? srgb.ensureAlpha() : srgb.removeAlpha()).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: wanted };
}
