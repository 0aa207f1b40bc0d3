// The image engine: bytes and parsed options in, bytes and stats out. Each
// stage is its own step module; this file only wires them in order.
import sharp, { type Sharp } from "sharp";
import { uprightSize } from "../../contracts/image-orientation.ts";
import type { ImageOptions, ImageOutputFormat } from "../../contracts/image-options.ts";
import type { ImageProcessReply, ImageStats } from "../../contracts/origin/image-process.ts";
import { autoCandidates, chooseSmallest, keepsAnimation, profileContent, requestedTarget, type CandidateOutcome, type ContentProfile } from "./choose-format.ts";
import { inspectSource, type SourceFormat, type SourceImage } from "./decode-limits.ts";
import { encode, paletteLadder, type EncodeTarget } from "./encode.ts";
import { fitToBytes, qualityLadder, SIZE_MODELS } from "./fit-to-bytes.ts";
import { DEFAULT_FLATTEN_BACKGROUND, flattenForFormat, formatHasAlpha } from "./flatten.ts";
import { buildPipeline, openPixels, renderPixels, type RenderedPixels } from "./pipeline.ts";
import { placeholderOf } from "./placeholder.ts";

export type ProcessedImageStats = ImageStats;

/** The contract's reply, with the bytes it is framed in front of. */
export interface ProcessedImage extends ImageProcessReply {
  bytes: Uint8Array;
}

export async function processImage(input: Uint8Array, options: ImageOptions): Promise<ProcessedImage> {
  const source = await inspectSource(input);
  const animated = options.animated && source.animation !== null && keepsAnimation(options.format);
  const pixels = await renderPixels(input, source, options, animated);
  const content = profileContent(pixels);
  const encodeTarget = async (target: EncodeTarget) =>
    encode(await encoderInput(input, source, pixels, content, options, target.format), target, options, pixels.animation);

  const chosen =
    options.format === "auto"
      ? await chooseSmallest(autoCandidates(content, options.quality, animated), encodeTarget)
      : await encodeOne(requestedTarget(options.format, source.format, content, options.quality, animated), encodeTarget);
  let { target, bytes } = chosen;
  let encodes = chosen.candidates?.length ?? 1;

  if (options.max_bytes !== null && bytes.byteLength > options.max_bytes) {
    const lossy = (quality: number): EncodeTarget => ({ format: target.format, lossless: false, quality });
    const fitted = await fitToBytes((quality) => encodeTarget(lossy(quality)), options.max_bytes, {
      ladder: target.format === "png" ? paletteLadder(options.quality) : qualityLadder(options.quality),
      known: target.lossless ? undefined : bytes,
      model: SIZE_MODELS[target.format],
    });
    target = lossy(fitted.quality);
    bytes = fitted.bytes;
    encodes += fitted.encodes;
  }

  const original = uprightSize({ ...source, orientation: pixels.orientation_applied });
  return {
    bytes,
    format: target.format,
    width: pixels.width,
    height: pixels.page_height,
    stats: {
      original_bytes: source.bytes,
      output_bytes: bytes.byteLength,
      ratio: Math.round((bytes.byteLength / source.bytes) * 10_000) / 10_000,
      original_width: original.width,
      original_height: original.height,
      original_format: source.format,
      quality: target.lossless ? null : target.quality,
      lossless: target.lossless,
      encodes,
      orientation_applied: pixels.orientation_applied,
      first_frame_only: source.pages > 1 && pixels.animation === null,
      frames: pixels.animation?.frames ?? 1,
      duration_ms: pixels.animation === null ? null : pixels.animation.delay.reduce((sum, ms) => sum + ms, 0),
      format_chosen_by_auto: options.format === "auto",
      candidates: chosen.candidates,
    },
    placeholder: options.placeholder ? await placeholderOf(firstFrame(pixels), { width: pixels.width, height: pixels.page_height }) : null,
  };
}

// The rendered output's first frame (all of a still image): what a placeholder previews.
function firstFrame(pixels: RenderedPixels): Sharp {
  const { width, page_height: height, channels } = pixels;
  return sharp(pixels.data.subarray(0, width * height * channels), { raw: { width, height, channels } });
}

async function encodeOne(
  target: EncodeTarget,
  encodeTarget: (target: EncodeTarget) => Promise<Uint8Array>,
): Promise<{ target: EncodeTarget; bytes: Uint8Array; candidates: null }> {
  return { target, bytes: await encodeTarget(target), candidates: null };
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
