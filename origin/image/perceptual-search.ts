// One quality: "auto" search, as named steps over its state (perceptual-quality.ts says how it
// goes): probe the sample per chroma (sampleAnswers), pick the first whole output (firstTry), move
// along whole scores (nextTry) until one lands (walk), and answer the smallest output reaching the
// target (answer), or what the deadline left (answerInTime). AVIF walks drafts of the whole output
// from its typical quality first, then the outputs from where the drafts point (draftAnswer). An
// answer more than LANDING_LIMIT above the target walks on with finer steps (landFiner).
import sharp, { type Sharp } from "sharp";
import type { OutputChroma } from "../../contracts/image-options.ts";
import { QUALITY_LEVEL_TARGETS, type QualityLevel } from "../../contracts/perceptual-quality.ts";
import { perceptualScorer, type ReferenceScorer } from "../quality/perceptual-score.ts";
import { predictQuality } from "../quality/predict-quality.ts";
import type { RawImage } from "../quality/raw-image.ts";
import { mosaicTiles, wholeScoreEstimate, type LossyFormat } from "../quality/sample-mosaic.ts";
import { qualityAlongSample } from "../quality/sample-curve.ts";
import { SAMPLE, sampleOf } from "../quality/sample-size.ts";
import { coarseRungs, nearestQuality, qualitiesUpTo, withinReach } from "../quality/search-ladder.ts";
import { OutOfTime, StepBudget, type SearchBudget, type StepKind } from "../quality/step-budget.ts";
import type { WebpCandidate } from "../quality/webp-candidate.ts";
import { currentDeadline } from "../worker-pool/deadline.ts";
import { encode, type EncoderKnob, type EncoderOptions } from "./encode.ts";
import { searchQualityBoundary } from "./fit-to-bytes.ts";
import {
  AIM_MARGIN,
  sampleAim,
  BEST_EFFORT_TOLERANCE,
  CHROMA_HEADROOM,
  chromaChoices,
  curveQuality,
  DRAFT_SLACK,
  DRAFT_SPEEDUP,
  DRAFTS_FIRST,
  finerKnob,
  LANDING_LIMIT,
  searchKnob,
  landingSlack,
  MAX_DRAFTS,
  MAX_FINER_OUTPUTS,
  MAX_WHOLE_OUTPUTS,
  MAX_WHOLE_STEP,
  SCORE_CURVES,
  typicalQuality,
} from "./perceptual-rules.ts";
import { rawRgb } from "./raw-rgb.ts";

export interface PerceptualOutcome {
  bytes: Uint8Array;
  quality: number;
  chroma: OutputChroma;
  /** The knob the answer was encoded with: the search's own (searchKnob: JPEG's table 5) or the format's finer one (finerKnob); undefined for the encoder's own settings. */
  knob?: EncoderKnob;
  /** The output's SSIMULACRA 2, scored whole; null for a fallback the deadline left no time to score. */
  score: number | null;
  /** Whether `score` reaches the level's target. */
  targetMet: boolean;
  /** Encodes made: the sample's probes or the drafts, and the whole encodes. */
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

/** One encode of the search: a probe of the sample, a draft of the whole output or the output, each encoded, decoded and scored. */
export interface SearchStep {
  of: StepKind | "draft";
  chroma: OutputChroma;
  quality: number;
  /** Encoded with the format's finer knob (finerKnob). */
  finer?: boolean;
  /** The whole output's score, or the sample's estimate of it. */
  score: number;
  bytes: number;
  encodeMs: number;
  /** On the main thread; a WebP probe is decoded by the score worker, within scoreMs. */
  decodeMs: number;
  scoreMs: number;
}

/** Encodes the whole image at a quality and chroma, as the output; with the knob given (encode.ts's EncodeTarget): the search's own or the format's finer one. */
export type WholeEncoder = (quality: number, chroma: OutputChroma, knob?: EncoderKnob) => Promise<Uint8Array>;

interface Scored {
  /** What the encoder wrote: one file, or one per tile of a sample encoded tile by tile. */
  pieces: Uint8Array[];
  /** Their bytes together. */
  size: number;
  score: number;
}

interface WholeOutput extends Setting {
  bytes: Uint8Array;
  score: number;
}

/** The settings whose whole outputs one walk moves between: a chroma, with or without the format's finer knob. */
interface Curve {
  chroma: OutputChroma;
  /** Encoded with the format's finer knob (finerKnob). */
  finer?: boolean;
}

interface Setting extends Curve {
  quality: number;
}

function onCurve(setting: Curve, curve: Curve): boolean {
  return setting.chroma === curve.chroma && (setting.finer ?? false) === (curve.finer ?? false);
}

interface SampleAnswer {
  chroma: OutputChroma;
  /** The lowest ladder quality whose estimate reaches the aim; null when even the ladder's top does not. */
  quality: number | null;
}

/** The pixels a search works on: the image, the sample its probes encode, and how a probe's score reads as the image's. */
interface SearchImage {
  pixels: RawImage;
  sample: RawImage;
  /** The sample is the image itself. */
  whole: boolean;
  /** A WebP sample's tiles, each encoded on its own (sample-size.ts); null for a sample encoded as one image. */
  sampleTiles: RawImage[] | null;
  /** A probe is the output: the whole image, encoded as the output would be (colour, without metadata). */
  probeIsOutput: boolean;
}

/** The search's image: `reference` is the still image the encoder gets (after flattening). */
async function searchImage(reference: Sharp, format: LossyFormat, encoder: EncoderOptions): Promise<SearchImage> {
  const { channels } = await reference.metadata();
  const pixels = await rawRgb(reference);
  const sample = sampleOf(pixels, format);
  const whole = sample === pixels;
  return {
    pixels,
    sample,
    whole,
    sampleTiles: whole || format !== "webp" ? null : mosaicTiles(sample, SAMPLE.webp.tile),
    // A grey image is scored as RGB, so its probe is not the output.
    probeIsOutput: whole && encoder.strip_metadata && (channels ?? 3) >= 3,
  };
}

/**
 * Each reference's side of the metric is computed once for all of a search's scores. A whole
 * image's scores are split across both lanes, its finest scale on one and the coarser ones on the
 * other (about 70% of the time when the lanes are free, as they are while the search waits for a
 * whole score); a sample's stays on one lane. Each side is prepared on its lane while the first
 * probe is encoded; a failure surfaces at the reference's first score.
 */
function scorersOf(image: SearchImage): { sample: ReferenceScorer; whole: ReferenceScorer } {
  const sample = perceptualScorer(image.sample);
  const whole = image.whole ? sample : perceptualScorer(image.pixels, { split: true });
  sample.prepare().catch(() => undefined);
  if (!image.whole) whole.prepare().catch(() => undefined);
  return { sample, whole };
}

/** The state of one search and its steps. */
export class PerceptualSearchRun {
  readonly #search: PerceptualSearch;
  readonly #encodeImage: WholeEncoder;
  readonly #image: SearchImage;
  readonly #format: LossyFormat;
  readonly #target: number;
  /** Where the sample search aims a chroma's first whole output. */
  readonly #aim: number;
  readonly #ceiling: number;
  readonly #ladder: number[];
  readonly #slack: number;
  readonly #choices: OutputChroma[];
  readonly #typical: number;
  /** What every encode of the search sets besides the quality and chroma, unless on the finer knob's curve. */
  readonly #knob: EncoderKnob | undefined;
  /** The format's finer knob (finerKnob), null when it has none. */
  readonly #finer: EncoderKnob | null;
  readonly #budget: StepBudget;
  readonly #scorers: { sample: ReferenceScorer; whole: ReferenceScorer };
  readonly #probes = new Map<OutputChroma, Map<number, Scored>>();
  readonly #finals: WholeOutput[] = [];
  /** The whole image encoded at the encoder's fastest effort, scored as the output it stands for (DRAFTS_FIRST). */
  readonly #drafts: WholeOutput[] = [];
  /** Whole outputs are drafted until the drafts land: the steps that move between outputs move between drafts. */
  #drafting: boolean;
  readonly #answers: SampleAnswer[] = [];
  /** The sample search's answers that reach the aim, the one whose sample costs fewest bytes first. */
  #reaching: Setting[] = [];
  #encodes = 0;

  static async start(reference: Sharp, encodeImage: WholeEncoder, search: PerceptualSearch): Promise<PerceptualSearchRun> {
    return new PerceptualSearchRun(await searchImage(reference, search.format, search.encoder), encodeImage, search);
  }

  private constructor(image: SearchImage, encodeImage: WholeEncoder, search: PerceptualSearch) {
    this.#search = search;
    this.#encodeImage = encodeImage;
    this.#image = image;
    this.#format = search.format;
    this.#target = QUALITY_LEVEL_TARGETS[search.level];
    this.#aim = this.#target + sampleAim(search.format);
    this.#ceiling = search.ceiling ?? 100;
    this.#ladder = qualitiesUpTo(this.#ceiling);
    this.#slack = landingSlack(search.format, image.probeIsOutput);
    this.#choices = chromaChoices(search.format, search.encoder.chroma_subsampling);
    this.#typical = typicalQuality(search.format, search.level);
    this.#knob = searchKnob(search.format, search.encoder);
    this.#finer = finerKnob(search.format, search.encoder);
    const deadlineAt = currentDeadline();
    const pixelRatio = (image.pixels.width * image.pixels.height) / (image.sample.width * image.sample.height);
    this.#budget = new StepBudget(search.budget ?? (deadlineAt === undefined ? null : { deadlineAt, now: Date.now }), pixelRatio);
    this.#scorers = scorersOf(image);
    this.#drafting = DRAFTS_FIRST[search.format] && !image.probeIsOutput;
  }

  /** The whole outputs of the phase the search is in: its drafts while drafting, else the outputs. */
  get #outputs(): WholeOutput[] {
    return this.#drafting ? this.#drafts : this.#finals;
  }

  /** The smallest output reaching the level's target, or what the deadline left time for. */
  async run(): Promise<PerceptualOutcome> {
    try {
      if (this.#drafting) {
        // The drafts start where the format typically lands: a mosaic sample misjudged AVIF's whole
        // output by 3 to 10 on the wallpapers, and its probes cost as much as one draft's move.
        const first = { chroma: this.#choices[0]!, quality: Math.min(this.#ceiling, this.#typical) };
        // Where the drafts would have gone next, else where they landed.
        const pointed = await this.#walk(first, MAX_DRAFTS);
        this.#drafting = false;
        await this.#walk(pointed ?? this.#draftAnswer(), MAX_WHOLE_OUTPUTS);
      } else {
        await this.#sampleAnswers();
        await this.#walk(await this.#firstTry(), MAX_WHOLE_OUTPUTS);
      }
      await this.#landFiner();
      return this.#answer();
    } catch (error) {
      if (!(error instanceof OutOfTime)) throw error;
      return this.#answerInTime();
    }
  }

  /**
   * Makes whole outputs (or drafts) from `next` on, until one lands, the moves end or `limit` are
   * made; returns where it would have gone next, null when it landed or ended.
   */
  async #walk(next: Setting | null, limit: number): Promise<Setting | null> {
    while (next !== null && this.#outputs.length < limit) {
      const tried = this.#outputs.length;
      const output = await this.#wholeAt(next);
      // Pointed back at an output already made: nothing new to learn.
      if (this.#outputs.length === tried) return null;
      next = await this.#nextTry(output);
    }
    return next;
  }

  /**
   * An answer more than LANDING_LIMIT above the target, up to MAX_FINER_OUTPUTS more whole outputs:
   * on along its curve where the whole outputs' cap stopped the walk (a quality at a time inside
   * the bracket), then, where the quality below fell short, along the format's finer knob
   * (FINER_KNOBS) from that quality. The answer stays the smallest output reaching the target,
   * whichever curve made it.
   */
  async #landFiner(): Promise<void> {
    const limit = this.#finals.length + MAX_FINER_OUTPUTS;
    let answer = this.#smallestMet();
    if (answer === undefined || !this.#landsTooHigh(answer)) return;
    await this.#walk(await this.#alongChroma(answer), limit);
    answer = this.#smallestMet()!;
    const finer = this.#finerCurve(answer);
    if (!this.#landsTooHigh(answer) || finer === null) return;
    const shortBelow = this.#finals.some((output) => onCurve(output, answer) && output.quality === answer.quality - 1 && output.score < this.#target);
    if (shortBelow) await this.#walk({ ...finer, quality: answer.quality - 1 }, limit);
  }

  /** Lands more than LANDING_LIMIT above the target, above the lowest quality. */
  #landsTooHigh(output: WholeOutput): boolean {
    return output.score - this.#target > LANDING_LIMIT && output.quality > 1;
  }

  /** The knob an encode on the finer knob's curve, or off it, is made with. */
  #knobOf(finer: boolean | undefined): EncoderKnob | undefined {
    return finer === true ? (this.#finer ?? undefined) : this.#knob;
  }

  /** The curve of the format's finer knob beside `answer`'s; null when there is none or it is on it. */
  #finerCurve(answer: WholeOutput): Curve | null {
    if (this.#finer === null || answer.finer === true) return null;
    return { chroma: answer.chroma, finer: true };
  }

  /** The smallest whole output reaching the target, if any. */
  #smallestMet(): WholeOutput | undefined {
    const met = this.#finals.filter((output) => output.score >= this.#target);
    return met.length === 0 ? undefined : met.reduce((a, b) => (b.bytes.byteLength < a.bytes.byteLength ? b : a));
  }

  /** Where the drafts point the output: the smallest draft reaching the target, else the best-scoring one. */
  #draftAnswer(): Setting | null {
    const met = this.#drafts.filter((draft) => draft.score >= this.#target);
    if (met.length > 0) return met.reduce((a, b) => (b.bytes.byteLength < a.bytes.byteLength ? b : a));
    return this.#drafts.reduce<WholeOutput | null>((a, b) => (a === null || b.score > a.score ? b : a), null);
  }

  /** The output's estimate from a probe's score: the sample's stretched to the whole image's (sample-mosaic.ts). */
  #estimate(sampleScore: number): number {
    return this.#image.whole ? sampleScore : wholeScoreEstimate(this.#format, sampleScore);
  }

  /** Encodes, decodes and scores one step, within the budget, telling onStep where its time went. */
  async #encodeAndScore<Candidate>(
    of: StepKind | "draft",
    setting: Setting,
    encodeIt: () => Promise<Uint8Array[]>,
    candidateOf: (pieces: Uint8Array[]) => Promise<Candidate>,
    score: (candidate: Candidate) => Promise<number>,
  ): Promise<Scored> {
    const budget = this.#budget;
    const kind: StepKind = of === "draft" ? "whole" : of;
    budget.check(kind, this.#finals.some((output) => output.score >= this.#target));
    const started = performance.now();
    const clockedAt = budget.now();
    const pieces = await encodeIt();
    this.#encodes++;
    const encoded = performance.now();
    const encodeSpent = budget.now() - clockedAt;
    const candidate = await candidateOf(pieces);
    const decodedAt = performance.now();
    const scored = { pieces, size: pieces.reduce((total, piece) => total + piece.byteLength, 0), score: await score(candidate) };
    // A draft is costed as the output it stands for, whose encode takes DRAFT_SPEEDUP times as long.
    const encodeCost = of === "draft" ? encodeSpent * DRAFT_SPEEDUP : encodeSpent;
    budget.spent(kind, encodeCost, budget.now() - clockedAt + encodeCost - encodeSpent);
    this.#search.onStep?.({ of, ...setting, score: scored.score, bytes: scored.size, encodeMs: encoded - started, decodeMs: decodedAt - encoded, scoreMs: performance.now() - decodedAt });
    return scored;
  }

  /** The whole image at the encoder's fastest effort, as the output would be encoded but for its metadata. */
  async #encodeDraft(quality: number, chroma: OutputChroma): Promise<Uint8Array[]> {
    const settings = { ...this.#search.encoder, chroma_subsampling: chroma, strip_metadata: true };
    return [await encode(rawInput(this.#image.pixels), { format: this.#format, lossless: false, quality, draft: true }, settings)];
  }

  /** The sample at a setting, probed once: its bytes and the whole output's score it estimates. */
  async #probe(chroma: OutputChroma, quality: number): Promise<Scored> {
    const known = this.#probes.get(chroma)?.get(quality);
    if (known !== undefined) return known;
    const { sample, sampleTiles } = this.#image;
    const settings = { ...this.#search.encoder, chroma_subsampling: chroma, strip_metadata: true };
    const encodePiece = (piece: RawImage) => encode(rawInput(piece), { format: this.#format, lossless: false, quality, ...this.#knob }, settings);
    // The score worker decodes a WebP probe itself (quality/webp-candidate.ts).
    const candidateOf = async (pieces: Uint8Array[]): Promise<RawImage | WebpCandidate> =>
      this.#format === "webp"
        ? { webp: pieces, tile: sampleTiles === null ? null : SAMPLE.webp.tile, width: sample.width, height: sample.height, channels: sample.channels }
        : rawRgb(sharp(pieces[0]), sample.channels);
    const scored = await this.#encodeAndScore(
      "sample",
      { chroma, quality },
      () => Promise.all(sampleTiles === null ? [encodePiece(sample)] : sampleTiles.map(encodePiece)),
      candidateOf,
      async (candidate) => this.#estimate(await this.#scorers.sample(candidate)),
    );
    if (!this.#probes.has(chroma)) this.#probes.set(chroma, new Map());
    this.#probes.get(chroma)!.set(quality, scored);
    return scored;
  }

  /** Whether a whole score reaches the target and lands at most the format's landing slack above it. */
  #landsOnTarget(score: number): boolean {
    return score >= this.#target && score - this.#target <= this.#slack;
  }

  /**
   * Where the estimate reaches `aim` over `rungs` (null when even the top does not), probes kept
   * across calls: the bracket is found on every other rung, and the answer interpolated inside it
   * by the model, since the whole outputs that follow correct it to the single quality step anyway.
   */
  async #sampleSearch(chroma: OutputChroma, aim: number, rungs: number[]): Promise<number | null> {
    if (rungs.length === 0) return null;
    const curve = SCORE_CURVES[this.#format];
    const coarse = coarseRungs(rungs);
    const known = [...(this.#probes.get(chroma) ?? [])].flatMap(([quality, value]) => (coarse.includes(quality) ? [{ quality, value, passes: value.score < aim }] : []));
    const probed = () => [...(this.#probes.get(chroma)?.keys() ?? [])];
    const boundary = await searchQualityBoundary<Scored>({
      ladder: coarse,
      measure: (quality) => this.#probe(chroma, quality),
      passes: ({ score }) => score < aim,
      predict: (bracket) => withinReach(predictQuality(bracket, aim, curve), probed()),
      known,
      // A probe that is the output is answered where it lands, as a first whole output is: probing
      // on to the exact bracket bought nothing the landing rule then took.
      settles: this.#image.probeIsOutput ? ({ score }) => this.#landsOnTarget(score) : undefined,
    });
    const { passing, failing, settled } = boundary;
    if (settled !== null) return settled.quality;
    if (failing === null) return null;
    if (passing === null) return failing.quality;
    return Math.min(failing.quality, Math.max(passing.quality + 1, Math.round(predictQuality(boundary, aim, curve))));
  }

  /** The whole output (or its draft) at a setting, encoded and scored once (a probe's, when the probe is the output). */
  async #wholeAt(setting: Setting): Promise<WholeOutput> {
    const { chroma, quality, finer } = setting;
    const done = this.#outputs.find((output) => onCurve(output, setting) && output.quality === quality);
    if (done !== undefined) return done;
    let scored: Scored;
    // The sample's probes are at the search's own settings (searchKnob).
    if (this.#image.probeIsOutput && finer !== true) scored = await this.#probe(chroma, quality);
    else {
      // The sample's probes are done, so the lane they used prepares the whole image's coarser scales while the output is encoded.
      if (this.#drafts.length === 0 && this.#finals.length === 0) this.#scorers.whole.prepareOtherLane().catch(() => undefined);
      const channels = this.#image.pixels.channels;
      const encodeIt = this.#drafting ? () => this.#encodeDraft(quality, chroma) : async () => [await this.#encodeImage(quality, chroma, this.#knobOf(finer))];
      scored = await this.#encodeAndScore(this.#drafting ? "draft" : "whole", { chroma, quality, finer }, encodeIt, async ([bytes]) => rawRgb(sharp(bytes), channels), this.#scorers.whole);
    }
    const output = { bytes: scored.pieces[0]!, score: scored.score, chroma, quality, finer };
    this.#outputs.push(output);
    return output;
  }

  /**
   * The sample's answer for each chroma in chromaChoices' order. After 4:2:0 (JPEG and WebP) the
   * richer chroma waits for 4:2:0's whole outputs (richerChroma): a sample of false-colour maps
   * and illustrations misjudges 4:2:0 both ways, and only a landing above the typical quality by
   * CHROMA_HEADROOM, or a ceiling that cannot reach, gives the richer chroma a chance to win. After
   * AVIF's 4:4:4, 4:2:0 costs less at the same quality and is searched over the whole ladder,
   * unless 4:4:4 answers near the typical quality.
   */
  async #sampleAnswers(): Promise<void> {
    for (const chroma of this.#choices) {
      const first = this.#answers[0]?.quality ?? null;
      if (this.#answers.length > 0 && (this.#richerAfterWhole() || (first !== null && first <= this.#typical + CHROMA_HEADROOM))) break;
      this.#answers.push({ chroma, quality: await this.#sampleSearch(chroma, this.#aim, this.#ladder) });
    }
    const reaching = this.#answers.filter((answer): answer is Setting => answer.quality !== null);
    this.#reaching = reaching.sort((a, b) => this.#sampleBytes(a) - this.#sampleBytes(b));
  }

  /** JPEG and WebP search their richer chroma only after 4:2:0's whole outputs. */
  #richerAfterWhole(): boolean {
    return this.#choices.length > 1 && this.#choices[0] === "4:2:0";
  }

  /** The first whole output to make: the chroma whose sample answer costs fewest bytes, else the likeliest to reach. */
  async #firstTry(): Promise<Setting | null> {
    let next: Setting;
    const [cheapest] = this.#reaching;
    if (cheapest !== undefined) next = cheapest;
    else if (this.#richerAfterWhole()) {
      // 4:2:0's sample reached the aim nowhere: one whole output at the typical quality tells whether the sample misjudged it.
      next = { chroma: this.#choices[0]!, quality: Math.min(this.#ceiling, this.#typical) };
    } else {
      // No chroma reaches the aim on the sample: the one scoring highest at the top, at the lowest quality within a point of it.
      const tops = this.#choices.map((chroma) => ({ chroma, score: this.#probes.get(chroma)!.get(this.#ceiling)!.score }));
      const best = tops.reduce((a, b) => (b.score > a.score ? b : a));
      next = { chroma: best.chroma, quality: (await this.#sampleSearch(best.chroma, best.score - BEST_EFFORT_TOLERANCE, this.#ladder)) ?? this.#ceiling };
    }
    // A sample that is the image itself scored whole outputs: the lowest quality among them that
    // reaches the target lands, when within the landing slack, without an encode between probes.
    if (this.#image.probeIsOutput) {
      const { chroma } = next;
      const landed = [...this.#probes.get(chroma)!].filter(([, { score }]) => score >= this.#target).sort(([a], [b]) => a - b)[0];
      if (landed !== undefined && this.#landsOnTarget(landed[1].score)) next = { chroma, quality: landed[0] };
    }
    return next;
  }

  /**
   * A chroma's sample bytes at a quality, between probes interpolated in the logarithm of the
   * bytes (which grows about linearly with quality), past the last probe taken from it.
   */
  #sampleBytes({ chroma, quality }: Setting): number {
    const sampled = [...this.#probes.get(chroma)!].sort(([a], [b]) => a - b);
    const above = sampled.find(([probed]) => probed >= quality);
    const below = sampled.findLast(([probed]) => probed <= quality);
    if (above === undefined || below === undefined || above[0] === below[0]) return (above ?? below)![1].size;
    const t = (quality - below[0]) / (above[0] - below[0]);
    return Math.exp(Math.log(below[1].size) + t * (Math.log(above[1].size) - Math.log(below[1].size)));
  }

  /** Where to go after a whole output: on along its chroma's whole scores, else to the richer chroma; null when the search is done. */
  async #nextTry(last: WholeOutput): Promise<Setting | null> {
    if (last.finer === true) return this.#alongChroma(last);
    const first = this.#choices[0];
    if (this.#richerAfterWhole() && last.chroma === first && last.score < this.#target && this.#sampleNeverReached(last)) return this.#richerChroma(null);
    const along = await this.#alongChroma(last);
    if (along !== null || !this.#richerAfterWhole() || last.chroma !== first) return along;
    const landed = this.#metAscending(last)[0];
    return landed !== undefined && landed.quality > this.#typical + CHROMA_HEADROOM ? this.#richerChroma(landed.quality) : null;
  }

  /**
   * Whether a whole output below the target confirms the sample's verdict that its chroma reaches
   * the aim at no quality: the sample's top score, moved by as much as the whole output beat the
   * sample's estimate at its quality, still falls short.
   */
  #sampleNeverReached(output: WholeOutput): boolean {
    if (this.#answers.find((answer) => answer.chroma === output.chroma)?.quality !== null) return false;
    const sampled = this.#probes.get(output.chroma)!;
    const top = sampled.get(this.#ceiling)!.score;
    const nearest = nearestQuality([...sampled.keys()], output.quality);
    return top + (output.score - sampled.get(nearest)!.score) < this.#target;
  }

  /**
   * The richer chroma's answer on the sample, searched once: up to `upTo`, 4:2:0's landing (above
   * it the richer one costs more bytes at any quality), taken only when its sample costs fewer
   * bytes than 4:2:0's there; over the whole ladder when 4:2:0 reached the target nowhere.
   */
  async #richerChroma(upTo: number | null): Promise<Setting | null> {
    const richer = this.#choices[1]!;
    if (this.#answers.some((answer) => answer.chroma === richer)) return null;
    if (upTo !== null && !this.#costsLessAtAim(await this.#probe(richer, upTo), upTo)) {
      this.#answers.push({ chroma: richer, quality: null });
      return null;
    }
    const rungs = upTo === null ? this.#ladder : this.#ladder.filter((rung) => rung <= upTo);
    const quality = await this.#sampleSearch(richer, this.#aim, rungs);
    this.#answers.push({ chroma: richer, quality });
    if (quality === null) return null;
    if (upTo !== null && this.#sampleBytes({ chroma: richer, quality }) >= this.#sampleBytes({ chroma: this.#choices[0]!, quality: upTo })) return null;
    return { chroma: richer, quality };
  }

  /**
   * Whether the richer chroma's sample at 4:2:0's landing, `atLanding`, may reach the aim for
   * fewer bytes than 4:2:0's there: it must score at least the aim, and moved down the prior curve
   * to the aim, its bytes falling as 4:2:0's sample's fall with quality, cost less. On the corpus
   * 4:4:4 JPEG never won where 4:2:0 reached: its search there cost four probes for nothing.
   */
  #costsLessAtAim(atLanding: Scored, upTo: number): boolean {
    const aim = this.#aim;
    if (atLanding.score < aim) return false;
    const sampled = [...this.#probes.get(this.#choices[0]!)!].sort(([a], [b]) => a - b);
    const low = sampled[0]!;
    const high = sampled[sampled.length - 1]!;
    if (high[0] === low[0]) return true;
    const logBytesPerQuality = (Math.log(high[1].size) - Math.log(low[1].size)) / (high[0] - low[0]);
    const drop = Math.max(0, curveQuality(this.#format, atLanding.score) - curveQuality(this.#format, aim));
    return atLanding.size * Math.exp(-logBytesPerQuality * drop) < this.#sampleBytes({ chroma: this.#choices[0]!, quality: upTo });
  }

  /** The curve's whole outputs that reach the target, lowest quality first. */
  #metAscending(curve: Curve): WholeOutput[] {
    return this.#outputs.filter((output) => onCurve(output, curve) && output.score >= this.#target).sort((a, b) => a.quality - b.quality);
  }

  /** Where to go after a whole output, from the whole scores of its curve (its chroma, with or without the finer knob): null when the search is done. */
  async #alongChroma(last: WholeOutput): Promise<Setting | null> {
    const curve = { chroma: last.chroma, finer: last.finer };
    const target = this.#target;
    const above = this.#metAscending(curve)[0];
    const below = this.#outputs.filter((output) => onCurve(output, curve) && output.score < target).sort((a, b) => b.quality - a.quality)[0];
    const aim = target + AIM_MARGIN;
    const allowed = this.#drafting ? DRAFT_SLACK : this.#outputs.length > 1 ? LANDING_LIMIT : this.#slack;
    if (above !== undefined && (above.score - target <= allowed || above.quality <= 1)) return null;
    if (above !== undefined && below !== undefined) {
      if (below.quality >= above.quality || above.quality - below.quality <= 1) return null;
      return { ...curve, quality: between(below, above, aim) };
    }
    if (above !== undefined) return { ...curve, quality: Math.max(1, above.quality - MAX_WHOLE_STEP, Math.min(above.quality - 1, Math.round(this.#downFrom(curve, aim)))) };
    if (below!.quality < this.#ceiling) return { ...curve, quality: Math.min(this.#ceiling, Math.max(below!.quality + 1, Math.round(this.#alongSample(below!, aim)))) };
    return curve.finer === true ? null : this.#otherChroma(curve.chroma);
  }

  /** A chroma cannot reach the target at the ceiling: the other one, if its sample reached it, else searched now if it was left out. */
  async #otherChroma(chroma: OutputChroma): Promise<Setting | null> {
    const other = this.#reaching.find((answer) => answer.chroma !== chroma && !this.#outputs.some((output) => output.chroma === answer.chroma));
    if (other !== undefined) return other;
    // A chroma the sample search left out (4:2:0 looked typical there) is searched now.
    const unsearched = this.#choices.find((choice) => !this.#answers.some((answer) => answer.chroma === choice));
    if (unsearched === undefined) return null;
    const quality = await this.#sampleSearch(unsearched, this.#aim, this.#ladder);
    this.#answers.push({ chroma: unsearched, quality });
    return quality === null ? null : { chroma: unsearched, quality };
  }

  /**
   * From the outputs above the target down to the aim: through the two lowest (in the prior's
   * offsets, as the sample search extrapolates) when there are two, else along the prior curve
   * shifted through the one. A flat image takes the prior's steep slope for a few qualities a
   * step; its own slope goes there in one.
   */
  #downFrom(curve: Curve, aim: number): number {
    const [lowest, next] = this.#metAscending(curve);
    if (next === undefined) return this.#alongSample(lowest!, aim);
    const probe = (output: WholeOutput) => ({ quality: output.quality, value: output, passes: false });
    return predictQuality({ passing: null, failing: probe(lowest!), previousFailing: probe(next) }, aim, SCORE_CURVES[this.#format]);
  }

  /**
   * From one whole output to the aim along its chroma's sample probes shifted to pass through it
   * (quality/sample-curve.ts), at most MAX_WHOLE_STEP qualities away; along the prior curve where
   * the probes do not span the output or are the outputs.
   */
  #alongSample(output: WholeOutput, aim: number): number {
    if (this.#image.probeIsOutput) return this.#alongCurve(output, aim);
    const probes = [...(this.#probes.get(output.chroma) ?? [])].map(([quality, { score }]) => ({ quality, score }));
    // An output moves along its chroma's drafts, the whole image's own curve, where they span it.
    const drafted = this.#drafting ? null : qualityAlongSample(this.#drafts.filter((draft) => draft.chroma === output.chroma), output, aim);
    const along = drafted ?? qualityAlongSample(probes, output, aim);
    if (along === null) return this.#alongCurve(output, aim);
    return Math.min(output.quality + MAX_WHOLE_STEP, Math.max(output.quality - MAX_WHOLE_STEP, along));
  }

  /** From one whole output to the aim along the prior curve, shifted to pass through it. */
  #alongCurve(output: WholeOutput, aim: number): number {
    return output.quality + curveQuality(this.#format, aim) - curveQuality(this.#format, output.score);
  }

  /** The smallest whole output reaching the target; when none does, the smallest within a point of the best score. */
  #answer(): PerceptualOutcome {
    const met = this.#finals.filter((output) => output.score >= this.#target);
    const bestScore = Math.max(...this.#finals.map((output) => output.score));
    return this.#answerOf(met.length > 0 ? met : this.#finals.filter((output) => output.score >= bestScore - BEST_EFFORT_TOLERANCE), met.length > 0);
  }

  /** What the search has when the deadline stops it: the smallest output reaching the target, else the level's typical quality. */
  async #answerInTime(): Promise<PerceptualOutcome> {
    const met = this.#finals.filter((output) => output.score >= this.#target);
    if (met.length > 0) return this.#answerOf(met, true);
    const chroma = this.#choices[0]!;
    const quality = Math.min(this.#ceiling, this.#typical);
    const made = this.#finals.find((output) => output.chroma === chroma && output.quality === quality);
    if (made !== undefined) return this.#answerOf([made], false);
    const bytes = await this.#encodeImage(quality, chroma, this.#knob);
    this.#encodes++;
    return { bytes, quality, chroma, knob: this.#knob, score: null, targetMet: false, encodes: this.#encodes };
  }

  #answerOf(eligible: WholeOutput[], targetMet: boolean): PerceptualOutcome {
    const answer = eligible.reduce((a, b) => (b.bytes.byteLength < a.bytes.byteLength ? b : a));
    return { bytes: answer.bytes, quality: answer.quality, chroma: answer.chroma, knob: this.#knobOf(answer.finer), score: answer.score, targetMet, encodes: this.#encodes };
  }
}

/** The quality strictly between two whole outputs where the line through their scores reaches `aim`. */
function between(below: WholeOutput, above: WholeOutput, aim: number): number {
  const rise = above.score - below.score;
  const t = rise > 0 ? (aim - below.score) / rise : 0.5;
  const quality = Math.round(below.quality + t * (above.quality - below.quality));
  return Math.min(above.quality - 1, Math.max(below.quality + 1, quality));
}

function rawInput(image: RawImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}
