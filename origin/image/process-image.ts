// The image engine: bytes and parsed options in, bytes and stats out. Each
// stage is its own step module; this file only wires them in order.
import sharp, { type Sharp } from "sharp";
import { uprightSize } from "../../contracts/image-orientation.ts";
import type { ImageOptions, ImageOutputFormat, ImageQuality, OutputChroma } from "../../contracts/image-options.ts";
import { autoQualityLevel, QUALITY_LEVEL_TARGETS, type QualityLevel } from "../../contracts/perceptual-quality.ts";
import type { ImageProcessReply, ImageStats } from "../../contracts/origin/image-process.ts";
import { autoCandidates, chooseSmallest, profileContent, requestedTarget, type ContentProfile, type EncodedCandidate } from "./choose-format.ts";
import { keepsAnimation } from "../../contracts/transform/output-format.ts";
import type { SourceImage } from "./decode-limits.ts";
import { openOriginal } from "./open-original.ts";
import { encode, jpegTableOf, outputChroma, paletteLadder, webpEffortOf, type EncodeTarget, type EncoderKnob } from "./encode.ts";
import { fitToBytes, qualityLadder, SIZE_MODELS } from "./fit-to-bytes.ts";
import { DEFAULT_FLATTEN_BACKGROUND, flattenForFormat, formatHasAlpha } from "./flatten.ts";
import { buildPipeline, openPixels, renderPixels, type RenderedPixels } from "./pipeline.ts";
import { scoreOutput, searchPerceptualQuality, typicalQuality } from "./perceptual-quality.ts";
import { placeholderOf } from "./placeholder.ts";

export type ProcessedImageStats = ImageStats;

/** The contract's reply, with the bytes it is framed in front of. */
export interface ProcessedImage extends ImageProcessReply {
  bytes: Uint8Array;
}

export async function processImage(sourceBytes: Uint8Array, options: ImageOptions): Promise<ProcessedImage> {
  const { input, source } = await openOriginal(sourceBytes, { width: options.width ?? undefined, height: options.height ?? undefined, whole: true }, options.page ?? undefined);
  const animated = options.animated && source.animation !== null && keepsAnimation(options.format);
  const pixels = await renderPixels(input, source, options, animated);
  const content = profileContent(pixels);
  const level = autoLevel(options.quality);
  // Auto searches up to 100 (and PNG's palette ladder under max_bytes goes up to 256 colours).
  const quality = typeof options.quality === "number" ? options.quality : 100;
  const encodeTarget = async (target: EncodeTarget, chroma: OutputChroma | null = options.chroma_subsampling) =>
    encode(await encoderInput(input, source, pixels, content, options, target.format), target, { ...options, chroma_subsampling: chroma }, pixels.animation);
  const encodeCandidate = async (target: EncodeTarget): Promise<EncodedCandidate> => {
    const chroma = options.chroma_subsampling;
    if (level === null || target.lossless || target.format === "png") return { target, chroma, bytes: await encodeTarget(target), score: null, encodes: 1 };
    // An animation is not scored (its frames would each need a search): the level's typical quality.
    if (pixels.animation !== null) {
      const typical = { ...target, quality: typicalQuality(target.format, level) };
      return { target: typical, chroma, bytes: await encodeTarget(typical), score: null, encodes: 1 };
    }
    const at = (q: number, knob?: EncoderKnob): EncodeTarget => ({ ...target, quality: q, ...knob });
    const found = await searchPerceptualQuality(await encoderInput(input, source, pixels, content, options, target.format), (q, c, t) => encodeTarget(at(q, t), c), {
      format: target.format,
      level,
      encoder: options,
    });
    return { target: at(found.quality, found.knob), chroma: found.chroma, bytes: found.bytes, score: found.score, encodes: found.encodes };
  };

  const chosen =
    options.format === "auto"
      ? await chooseSmallest(autoCandidates(content, quality, animated), encodeCandidate)
      : { ...(await encodeCandidate(requestedTarget(options.format, source.format, content, quality, animated))), candidates: null };
  let { target, bytes, score, encodes } = chosen;
  const { chroma } = chosen;

  // Under auto the ceiling is auto's answer, so the output is the smaller of the two.
  if (options.max_bytes !== null && bytes.byteLength > options.max_bytes) {
    const ceiling = target.lossless || level === null ? quality : target.quality;
    // The ladder keeps the answer's knob (auto JPEG's table 5): its ceiling is a quality on that knob's scale, and stats say what was encoded.
    const lossy = (q: number): EncodeTarget => ({ ...target, lossless: false, quality: q });
    const fitted = await fitToBytes((q) => encodeTarget(lossy(q), chroma), options.max_bytes, {
      ladder: target.format === "png" ? paletteLadder(ceiling) : qualityLadder(ceiling),
      known: target.lossless ? undefined : bytes,
      model: SIZE_MODELS[target.format],
    });
    target = lossy(fitted.quality);
    bytes = fitted.bytes;
    encodes += fitted.encodes;
    // max_bytes, not the level, decided this output: scored afresh, so target_met says whether it still reaches the level.
    score = level === null || target.format === "png" || pixels.animation !== null ? null : await scoreOutput(await encoderInput(input, source, pixels, content, options, target.format), bytes);
  }
  const output: ChosenOutput = { target, chroma, bytes, score, encodes, candidates: chosen.candidates };
  return {
    bytes,
    format: target.format,
    width: pixels.width,
    height: pixels.page_height,
    stats: outputStats(source, pixels, options, level, output),
    placeholder: options.placeholder ? await placeholderOf(firstFrame(pixels), { width: pixels.width, height: pixels.page_height }) : null,
  };
}

/** The encode that answers the call, after the format choice and the max_bytes fit. */
interface ChosenOutput extends EncodedCandidate {
  candidates: ImageStats["candidates"];
}

function outputStats(source: SourceImage, pixels: RenderedPixels, options: ImageOptions, level: QualityLevel | null, output: ChosenOutput): ImageStats {
  const { target, chroma, bytes, score } = output;
  const qualityTarget = level === null ? null : QUALITY_LEVEL_TARGETS[level];
  // A still lossy output under a level is scored unless the deadline stopped the search first (its fallback): not met.
  const searched = qualityTarget !== null && pixels.animation === null && !target.lossless && target.format !== "png";
  const original = source.halvedFrom ?? uprightSize({ ...source, orientation: pixels.orientation_applied });
  return {
    original_bytes: source.bytes,
    output_bytes: bytes.byteLength,
    ratio: Math.round((bytes.byteLength / source.bytes) * 10_000) / 10_000,
    original_width: original.width,
    original_height: original.height,
    original_format: source.format,
    quality: target.lossless ? null : target.quality,
    score,
    quality_level: level,
    quality_target: qualityTarget,
    target_met: qualityTarget === null ? null : score === null ? (searched ? false : null) : score >= qualityTarget,
    chroma_subsampling: outputChroma(target, chroma),
    jpeg_table: jpegTableOf(target, options.mozjpeg),
    webp_effort: webpEffortOf(target),
    lossless: target.lossless,
    encodes: output.encodes,
    orientation_applied: pixels.orientation_applied,
    first_frame_only: source.pages > 1 && pixels.animation === null,
    frames: pixels.animation?.frames ?? 1,
    duration_ms: pixels.animation === null ? null : pixels.animation.delay.reduce((sum, ms) => sum + ms, 0),
    format_chosen_by_auto: options.format === "auto",
    candidates: output.candidates,
  };
}

// The rendered output's first frame (all of a still image): what a placeholder previews.
function firstFrame(pixels: RenderedPixels): Sharp {
  const { width, page_height: height, channels } = pixels;
  return sharp(pixels.data.subarray(0, width * height * channels), { raw: { width, height, channels } });
}

function autoLevel(quality: ImageQuality): QualityLevel | null {
  return typeof quality === "number" ? null : autoQualityLevel(quality);
}

// Stripped output encodes from the rendered pixels. Kept metadata has to come
// from the source itself (sharp copies EXIF, XMP and IPTC only from a decoded
// input), so that path decodes the source again for each encode.
async function encoderInput(
  input: Uint8Array,
  source: SourceImage,
  pixels: RenderedPixels,
  content: ContentProfile,
  options: ImageOptions,
  format: ImageOutputFormat,
): Promise<Sharp> {
  const image = options.strip_metadata
    ? openPixels(pixels)
    : (
        await buildPipeline(
          input,
          source,
          options,
          options.background ?? (formatHasAlpha(format) ? null : DEFAULT_FLATTEN_BACKGROUND),
          pixels.animation !== null,
        )
      ).image;
  return flattenForFormat(image, content.alpha, format, options.background);
}
