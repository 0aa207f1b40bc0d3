// The figures a quality: "auto" search steers by, per format: its prior score curves, its first
// chroma, and how far above the target an answer may land. Each figure was measured on the corpus;
// the runs behind them are in scripts/bench-quality/README.md.
import type { OutputChroma } from "../../contracts/image-options.ts";
import type { EncoderKnob, EncoderOptions } from "./encode.ts";
import { QUALITY_LEVEL_TARGETS, type QualityLevel } from "../../contracts/perceptual-quality.ts";
import type { LossyFormat } from "../quality/sample-mosaic.ts";
import { qualityAtScore, type ScoreCurve } from "../quality/score-curve.ts";

// Auto JPEG (with mozjpeg's tables) encodes at table 5 (Klein, Silverstein and Carney), not the
// table 3 a numeric quality keeps (a user's q76 keeps its meaning): at 4:2:0 table 5 reached 69 in
// 4-17% fewer bytes than table 3 on all eight pictures measured, its DC quantised in finer steps on
// smooth areas (scripts/bench-quality/README.md, "Landing where one quality step jumps" and
// "Auto JPEG at table 5"). Its probes, outputs and the deadline's fallback all use it.
const SEARCH_KNOBS: Record<LossyFormat, EncoderKnob | undefined> = { jpeg: { jpegTable: 5 }, webp: undefined, avif: undefined };

// A JPEG table is a knob only with mozjpeg's tables: libjpeg (mozjpeg: false) has only its own.
const knobAvailable = (format: LossyFormat, encoder: Pick<EncoderOptions, "mozjpeg">) => format !== "jpeg" || encoder.mozjpeg;

/** What every encode of an auto search sets besides quality and chroma: JPEG's table 5. */
export function searchKnob(format: LossyFormat, encoder: Pick<EncoderOptions, "mozjpeg">): EncoderKnob | undefined {
  return knobAvailable(format, encoder) ? SEARCH_KNOBS[format] : undefined;
}

// Typical SSIMULACRA 2 against quality per encoder as auto encodes (JPEG at table 5, WebP effort
// 4, AVIF effort 2) at the chroma each searches first (4:2:0; AVIF 4:4:4): medians of the whole
// outputs of four corpus photos at 1600 px (JPEG's re-measured at table 5). The model's prior, so
// the first probe lands near the answer; piecewise linear between the points.
export const SCORE_CURVES: Record<LossyFormat, ScoreCurve> = {
  jpeg: [[10, -3.5], [20, 35.5], [30, 50], [40, 57.5], [50, 63.5], [60, 69], [70, 74.5], [80, 81], [90, 87], [100, 97.5]],
  webp: [[10, 15], [20, 33], [40, 50], [60, 60], [70, 65], [80, 72.5], [90, 84], [100, 92]],
  avif: [[10, -2], [20, 20], [30, 38], [40, 55], [50, 67.5], [60, 76.5], [70, 82.5], [80, 86.5], [90, 91.5], [100, 100]],
};

/** The quality the format typically needs to reach the level: the search's first guess, and the answer where no score is possible (an animation). */
export function typicalQuality(format: LossyFormat, level: QualityLevel): number {
  return Math.round(Math.min(100, Math.max(1, curveQuality(format, QUALITY_LEVEL_TARGETS[level]))));
}

/** The quality at which the format's prior curve reaches `score`. */
export function curveQuality(format: LossyFormat, score: number): number {
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
// tried; after a move, up to LANDING_LIMIT (issue #25's limit). WebP takes the limit itself: a
// narrower window sent half the corpus photos to a second whole output, about one more q76 request
// each. JPEG's and AVIF's byte targets leave no room for answers 4 above.
const LANDING_SLACK: Record<LossyFormat, number> = { jpeg: 2.5, webp: 4, avif: 2.5 };
export const LANDING_LIMIT = 4;

/**
 * How far above the target the first whole output, or a probe that is the output, is taken as the
 * answer. An image no larger than its sample takes the limit in every format: there a second probe
 * costs about a q76 request by itself to save a tenth of a few kilobytes.
 */
export function landingSlack(format: LossyFormat, probeIsOutput: boolean): number {
  return probeIsOutput ? LANDING_LIMIT : LANDING_SLACK[format];
}

// Moves between whole outputs aim this far above the target, so an answer whose estimate errs a
// little still reaches it.
export const AIM_MARGIN = 1;

/**
 * How far above the target the sample search aims the first whole output: the middle of the
 * format's landing window, so an estimate off by up to half the window either way still lands,
 * and at least AIM_MARGIN. For WebP (window 4) that is 2: aimed at 1, 6 of 12 wallpapers never
 * tuned on took a second whole output (scripts/bench-quality/README.md, "First aim").
 */
export function sampleAim(format: LossyFormat): number {
  return Math.max(AIM_MARGIN, LANDING_SLACK[format] / 2);
}
// Whole encodes (each with a whole score) one search may make: the first answer, a move up or
// down, and two steps inside a bracket.
export const MAX_WHOLE_OUTPUTS = 5;
// A move down from whole outputs goes at most this many qualities at once: extrapolated through two
// outputs on a flat curve, the line can point far past the answer.
export const MAX_WHOLE_STEP = 12;
// Qualities above the level's typical one at which the first chroma's answer is taken without
// trying the other: at the same quality 4:4:4 JPEG and sharp-YUV WebP cost more bytes, so they can
// only win where 4:2:0 needs a quality well above the usual, its chroma holding the score down;
// AVIF 4:2:0 scores lower than 4:4:4 at the same quality and needs far more of it near the usual.
export const CHROMA_HEADROOM = 10;
// AVIF drafts its whole outputs instead of probing a sample (perceptual-search.ts): the whole image
// at the encoder's fastest effort (0, the output's is 2) encodes 3 to 7 times faster and scored
// 0.25 to 2.6 below the output on the corpus photos at q44 and q52 (0.7 to 1.3 at q52; up to 9.5 on
// a shaded graphic), never above. A mosaic sample's estimate of an AVIF output erred by 3 to 10 on
// the wallpapers, each miss a whole output of several hundred milliseconds
// (scripts/bench-quality/README.md, "AVIF drafts"). A draft's score is read as the output's, a
// floor: read 0.5 higher, three outputs the drafts pointed to on the wallpapers fell a fraction of
// a point short and took another.
export const DRAFTS_FIRST: Record<LossyFormat, boolean> = { jpeg: false, webp: false, avif: true };
// A draft lands when it scores at most this far above the target, so the output, a point or so
// higher, still lands within the format's slack.
export const DRAFT_SLACK = 2;
// Drafts one search may make before the output is made where the next would go: a third draft,
// about half an output's time, mostly landed where that output did.
export const MAX_DRAFTS = 2;
// How much faster a draft encodes than the output: the step budget costs the output's encode from
// a draft's by this.
export const DRAFT_SPEEDUP = 4;
// Whole outputs a search may add when its answer lands more than LANDING_LIMIT above the target
// (perceptual-search.ts, landFiner): on inside a bracket the cap left wider than one quality step,
// or along the format's finer knob where one step jumps past the window. Portrait_0 landed with
// two; wood-l's effort-2 curve is flat (78.5 at q68, 77.0 at q60), and with two it answered q60,
// 8 above, with four q36 at 70.6 in 32% fewer bytes (each effort-2 output about 0.3 s at 1600 px).
export const MAX_FINER_OUTPUTS = 4;
// Each format's finer knob, tried where one quality step jumps past the window.
// JPEG (with mozjpeg's tables, searched at table 5): table 2 (mozjpeg's, tuned for MS-SSIM) in place of 5. Table
// 3 quantises the DC of both planes in steps of 11, 10, 9 over q65-67, q68-70, q71-73, and on
// smooth areas (sky, mist) the score follows those steps: Portrait_0 at 1200x1800 scored 68.66 at
// q70 and 74.79 at q71, while table 5 (DC in steps of 7 to 6 there) scored 69.75 at q65 in 17%
// fewer bytes, which made table 5 auto's table. Table 5 steps too: generated grey-and-colour ramps
// scored 77.9-78.7 at q57 and 82.4-84.3 at q58 against auto:best's 79, where table 2 reached 79.3
// at q61 and 82.8 at q65 in no more bytes, and table 3 only 84.2-84.9 at q74 in 13% more. No
// corpus photo or wallpaper jumped past the window at table 5.
const FINER_KNOBS: Record<LossyFormat, EncoderKnob | null> = { jpeg: { jpegTable: 2 }, webp: { webpEffort: 2 }, avif: null };

/** The format's finer knob (FINER_KNOBS), tried where one quality step jumps past the window; null when it has none. */
export function finerKnob(format: LossyFormat, encoder: Pick<EncoderOptions, "mozjpeg">): EncoderKnob | null {
  return knobAvailable(format, encoder) ? FINER_KNOBS[format] : null;
}
// Outputs within this of the best score count as reaching it, when no setting reaches the target.
export const BEST_EFFORT_TOLERANCE = 1;
