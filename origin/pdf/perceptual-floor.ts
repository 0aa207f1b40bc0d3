// A profile's perceptual floor: the lowest JPEG quality whose re-encode of an image, at the
// resolution compress gives it, scores at least the floor in SSIMULACRA 2 against the resampled
// original. A document holds dozens of images and the floor is searched for each, so a probe
// encodes and scores a small sample (quality/sample-mosaic.ts, about 17 ms of the metric) and its
// score is turned into the whole image's as auto quality does for a JPEG (wholeScoreEstimate): a
// sample scores higher than the whole, whose coarse scales hold errors small tiles do not. An
// image no larger than twice the sample is its own sample and is scored whole.
//
// The estimate's stretch was measured on photos, and two kinds of image stray from it. Low
// qualities make coarse-scale errors (blocks and banding over flat fills and soft shading, a few
// pixels to a few dozen wide) that a 64-pixel tile cannot hold: at the metric's coarsest scale a
// tile is two pixels. And images made almost entirely of smooth surfaces (charts, logos, shaded
// vector art: smooth-share.ts) stray both ways. So where the sample answers CONFIRM_UP_TO or
// lower, or the image is such a graphic, the answer is scored whole and the search goes on from
// it on whole scores, up or down. The other images stay with the estimate: scoring every image
// whole would cost about a third of a compress. What the two rules catch on the corpus, image by
// image: origin/pdf/README.md ("Where the floor's sample estimate strays").
//
// An image drawn magnified (placed below the profile's resolution) is shown with each pixel
// spread over several of the page's: its blocks and ringing grow with it. Both sides are then
// scored as rendered, enlarged to the profile's resolution with a bilinear filter as viewers do.
//
// Each search is searchQualityBoundary (origin/image/fit-to-bytes.ts) with the predicate "the
// score (estimated or whole) is below the floor", which holds up to the boundary on an ascending
// ladder, and the model auto quality uses too (quality/predict-quality.ts) with this engine's prior curve.
import sharp from "sharp";
import type { Sharp } from "sharp";
import { searchQualityBoundary, type Probe } from "../image/fit-to-bytes.ts";
import type { RawImage } from "../quality/raw-image.ts";
import { blockSample, wholeScoreEstimate } from "../quality/sample-mosaic.ts";
import { predictQuality } from "../quality/predict-quality.ts";
import type { ScoreCurve } from "../quality/score-curve.ts";
import { perceptualScorer } from "../quality/perceptual-score.ts";
import { cmykToSrgb } from "./cmyk-to-srgb.ts";
import type { EncodingChoice } from "./encode-image.ts";
import { encodeJpeg, rawInput } from "./encode-pixels.ts";
import { smoothShare } from "./smooth-share.ts";
import { UNCAPPED_QUALITY } from "./profiles.ts";
import type { RawPixels } from "./raw-pixels.ts";

/** Lowest quality the search considers: below it MozJPEG's blocks show on any content. */
export const FLOOR_MIN_QUALITY = 20;
// The qualities the search picks from. Scores are noisy in quality (a step of 1 can lower one),
// which sends an exact search of every quality into bisection; steps of 5 keep it at two to four
// probes for at most 5 qualities above the exact boundary.
const FLOOR_QUALITY_STEP = 5;
const FLOOR_LADDER = Array.from({ length: (100 - FLOOR_MIN_QUALITY) / FLOOR_QUALITY_STEP + 1 }, (_, i) => FLOOR_MIN_QUALITY + i * FLOOR_QUALITY_STEP);
// Pixels scored per probe, after magnification: about 17 ms of the metric on an idle core.
const SAMPLE_PIXELS = 192 * 192;
// A sample's answer at or below this quality is confirmed by a whole score (see above).
const CONFIRM_UP_TO = 40;
// An image with at least this share of smooth pixels is a graphic whose answer is confirmed whole
// (see above); the shares that set it are in origin/pdf/README.md.
const SHADED_GRAPHIC_SHARE = 0.85;
// Beyond this enlargement a viewer's rendering, not the encode, decides what is seen.
const MAX_MAGNIFICATION = 4;

// The estimated SSIMULACRA 2 of baseline MozJPEG 4:2:0 against quality on the images of the PDF
// corpus at ebook's 150 dpi, whose answers for a floor of 69 centre on q50-55 (half of the 60
// searches at or below q55): the prior, so the first probe lands near the answer. Piecewise linear.
const PRIOR_CURVE: ScoreCurve = [
  [10, 10], [20, 38], [30, 52], [40, 60], [50, 66], [60, 71], [70, 76], [80, 82], [90, 88], [100, 95],
];

/** How much larger than its pixels an image placed at `placedDpi` is drawn at `targetDpi`; 1 when not enlarged. */
export function magnificationOf(placedDpi: number | null, targetDpi: number): number {
  if (placedDpi === null || !Number.isFinite(targetDpi) || placedDpi <= 0 || placedDpi >= targetDpi) return 1;
  return Math.min(MAX_MAGNIFICATION, targetDpi / placedDpi);
}

/** 8-bit sRGB for the metric (gray widened), enlarged by `magnification`. */
async function metricImage(image: Sharp, width: number, height: number, magnification: number): Promise<RawImage> {
  const rgb = image.toColourspace("srgb");
  const sized = magnification > 1 ? rgb.resize(Math.round(width * magnification), Math.round(height * magnification), { fit: "fill", kernel: "linear" }) : rgb;
  const { data, info } = await sized.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: 3 };
}

/** The same for CMYK samples, converted through sharp's CMYK profile as every CMYK image is (cmyk-to-srgb.ts). */
async function cmykMetricImage(cmyk: Uint8Array, width: number, height: number, magnification: number): Promise<RawImage> {
  const rgb = await cmykToSrgb(cmyk, width, height);
  return magnification > 1 ? metricImage(sharp(rgb.data, { raw: { width, height, channels: 3 } }), width, height, magnification) : rgb;
}

/** What the metric sees of `pixels`. */
function referenceImage(pixels: RawPixels, magnification: number): Promise<RawImage> {
  const { data, width, height } = pixels;
  return pixels.channels === 4 ? cmykMetricImage(data, width, height, magnification) : metricImage(rawInput(pixels), width, height, magnification);
}

/** What the metric sees of a JPEG encoded from `pixels`. */
async function decodedImage(jpeg: Uint8Array, pixels: RawPixels, magnification: number): Promise<RawImage> {
  const { width, height } = pixels;
  if (pixels.channels !== 4) return metricImage(sharp(jpeg), width, height, magnification);
  const cmyk = await sharp(jpeg).pipelineColourspace("cmyk").toColourspace("cmyk").raw().toBuffer();
  return cmykMetricImage(new Uint8Array(cmyk.buffer, cmyk.byteOffset, cmyk.byteLength), width, height, magnification);
}

interface Scored {
  score: number;
}

/**
 * The lowest quality of the ladder (FLOOR_MIN_QUALITY to 100) at which `pixels` (already at the
 * size compress writes) re-encoded as compress does is estimated to score at least `floor` as a
 * whole (scored whole where the estimate is least reliable, see above); 100 when no quality is,
 * and for pixels compress keeps lossless (`choice` Flate), which no quality touches.
 */
export async function floorQuality(pixels: RawPixels, choice: EncodingChoice, floor: number, magnification = 1): Promise<number> {
  if (choice === "flate") return UNCAPPED_QUALITY;
  const sample = blockSample(pixels, SAMPLE_PIXELS / (magnification * magnification));
  const scoreSample = await scorer(sample, magnification);
  if (sample === pixels) return lowestMeeting(floor, scoreSample);
  const sampled = await lowestMeeting(floor, async (quality) => wholeScoreEstimate("jpeg", await scoreSample(quality)));
  if (sampled > CONFIRM_UP_TO && smoothShare(pixels) < SHADED_GRAPHIC_SHARE) return sampled;
  const scoreWhole = await scorer(pixels, magnification);
  const whole = await scoreWhole(sampled);
  return lowestMeeting(floor, scoreWhole, { quality: sampled, value: { score: whole }, passes: whole < floor });
}

/**
 * searchQualityBoundary with the predicate "the score is below the floor": the lowest ladder
 * quality whose score reaches `floor`, 100 when none does. `known` is a quality already scored,
 * which the search goes on from.
 */
async function lowestMeeting(floor: number, scoreAt: (quality: number) => Promise<number>, known?: Probe<Scored>): Promise<number> {
  const boundary = await searchQualityBoundary<Scored>({
    ladder: FLOOR_LADDER,
    measure: async (quality) => ({ score: await scoreAt(quality) }),
    passes: ({ score }) => score < floor,
    predict: (bracket) => predictQuality(bracket, floor, PRIOR_CURVE),
    known: known === undefined ? [] : [known],
  });
  return (boundary.failing ?? boundary.passing!).quality;
}

/**
 * Scores `pixels` re-encoded at a quality against themselves, both as drawn at `magnification`.
 * The metric runs on the score pool's worker (its side of the reference prepared once and kept
 * there for the search's probes), so while it scores one image this thread decodes and encodes
 * the next (rewrite-images.ts keeps two in flight): on this thread, the metric was most of a
 * search's time and nothing else could run beside it. The reference is prepared while this
 * thread encodes the first probe; its failure surfaces at that probe's score.
 */
async function scorer(pixels: RawPixels, magnification: number): Promise<(quality: number) => Promise<number>> {
  const score = perceptualScorer(await referenceImage(pixels, magnification));
  score.prepare().catch(() => undefined);
  return async (quality) => {
    const encoded = await encodeJpeg(pixels, quality);
    return score(await decodedImage(encoded.bytes, pixels, magnification));
  };
}
