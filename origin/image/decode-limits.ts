// First step: find out what the bytes really are from the header alone, and
// refuse anything too big before a single pixel is decoded.
import sharp, { type Metadata, type Sharp } from "sharp";
import { IMAGE_SOURCE_MAX_BYTES, imageSourceMaxBytes } from "../../contracts/image-options.ts";
import type { Size } from "../../contracts/image-orientation.ts";
import type { SniffedFormat } from "../../contracts/sniff.ts";
import { ANIMATION_LIMITS } from "../../contracts/limits/animation.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { secondsLeft } from "../worker-pool/deadline.ts";
import type { ForeignFormat } from "./foreign-source/readable-source.ts";
import { truncationOf } from "./truncation.ts";

// Pixels are counted from the header, per frame/page. 100 MP covers 48 MP phone
// photos and medium-format cameras with room to spare while keeping a decoded
// RGBA frame under about 400 MB.
export const IMAGE_INPUT_LIMITS = {
  max_input_bytes: IMAGE_SOURCE_MAX_BYTES,
  max_input_pixels: 100_000_000,
} as const;

export type SourceFormat = "jpeg" | "png" | "webp" | "gif" | "tiff" | "avif" | ForeignFormat;

/** The timing of an animated source, as its header gives it. */
export interface Animation {
  frames: number;
  /** Display time of each frame in milliseconds. */
  delay: number[];
  /** Times the animation plays; 0 loops forever. */
  loop: number;
}

export interface SourceImage {
  format: SourceFormat;
  bytes: number;
  /** Stored dimensions of the first frame/page, before any EXIF orientation. */
  width: number;
  height: number;
  /** EXIF orientation tag 1..8, null when absent. */
  orientation: number | null;
  pages: number;
  has_alpha: boolean;
  is_greyscale: boolean;
  is_cmyk: boolean;
  /** An embedded ICC profile says what the samples mean. */
  has_icc_profile: boolean;
  /** Set for a GIF or WebP with more than one frame (a multi-page TIFF is not an animation). */
  animation: Animation | null;
  /**
   * The picture's upright size when its decoder delivered it at half that size (a HEIC whose
   * output needs no more, heic-native.ts): width and height are then the delivered pixels, which
   * the steps work on, and this is what the reply reports as the original's. Null otherwise.
   */
  halvedFrom: Size | null;
}

// Only these decoders see customer bytes: SVG, PDF and the *magick loaders
// would widen the attack surface and are not part of the contract.
function acceptedFormat(metadata: Metadata): SourceFormat | null {
  switch (metadata.format) {
    case "jpeg":
    case "png":
    case "webp":
    case "gif":
    case "tiff":
      return metadata.format;
    case "heif":
      return metadata.compression === "av1" ? "avif" : null;
    default:
      return null;
  }
}

/**
 * What an image call reads of its body before the source is sniffed: a call that asks for a page
 * may carry a PDF, up to the PDF limit; checkSourceBytes then holds each format to its own.
 */
export function inputMaxBytes(page: number | undefined): number {
  return page === undefined ? IMAGE_INPUT_LIMITS.max_input_bytes : Math.max(IMAGE_INPUT_LIMITS.max_input_bytes, imageSourceMaxBytes("pdf"));
}

/** An empty source is a 415, one over its format's byte limit a 413: both known before anything is read. */
export function checkSourceBytes(bytes: number, format: SniffedFormat | null): void {
  if (bytes === 0) throw new ProblemError("unsupported_media_type", "The source is empty.");
  const limit = imageSourceMaxBytes(format);
  if (bytes > limit) {
    throw new ProblemError("image_too_large", `The source is ${bytes} bytes; the limit is ${limit}.`, {
      extensions: { limit_bytes: limit },
    });
  }
}

/**
 * `original` names the file `input` was converted from (foreign-source/): the byte limit and the
 * reported format and size are the original's, the header the one sharp reads.
 */
export async function inspectSource(input: Uint8Array, original?: { format: ForeignFormat; bytes: number; halvedFrom: Size | null }): Promise<SourceImage> {
  const sourceBytes = original?.bytes ?? input.byteLength;
  checkSourceBytes(sourceBytes, original?.format ?? null);
  const truncation = truncationOf(input);
  if (truncation !== null) throw new ProblemError("image_unreadable", `The image is truncated: ${truncation}.`);
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw headerFailure(error);
  }
  const format = acceptedFormat(metadata);
  if (format === null) {
    throw new ProblemError(
      "unsupported_media_type",
      `Image format '${metadata.format}' is not accepted; send JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC, JPEG XL or SVG.`,
    );
  }
  const height = metadata.pageHeight ?? metadata.height;
  const pixels = metadata.width * height;
  if (pixels > IMAGE_INPUT_LIMITS.max_input_pixels) {
    throw new ProblemError(
      "image_too_large",
      `The image is ${metadata.width}x${height} (${pixels} pixels); the limit is ${IMAGE_INPUT_LIMITS.max_input_pixels} pixels.`,
      { extensions: { limit_pixels: IMAGE_INPUT_LIMITS.max_input_pixels } },
    );
  }
  const animation = animationOf(format, metadata);
  return {
    format: original?.format ?? format,
    bytes: sourceBytes,
    width: metadata.width,
    height,
    orientation: metadata.orientation && metadata.orientation >= 1 && metadata.orientation <= 8 ? metadata.orientation : null,
    pages: metadata.pages ?? 1,
    has_alpha: metadata.hasAlpha,
    is_greyscale: metadata.space === "b-w" || metadata.space === "grey16",
    is_cmyk: metadata.space === "cmyk",
    has_icc_profile: metadata.hasProfile === true,
    animation,
    halvedFrom: original?.halvedFrom ?? null,
  };
}

function animationOf(format: SourceFormat, metadata: Metadata): Animation | null {
  const frames = metadata.pages ?? 1;
  if ((format !== "gif" && format !== "webp") || frames < 2) return null;
  // A GIF frame without a delay is shown for 100 ms by browsers; libvips reports it as 0 or leaves it out.
  const delay = Array.from({ length: frames }, (_, i) => metadata.delay?.[i] || 100);
  return { frames, delay, loop: metadata.loop ?? 0 };
}

/**
 * The limits on decoding every frame, checked from the header when a call keeps the animation; a
 * call that takes the first frame (animated: false, a still output format) is held only to the
 * still-image limits, so that is the advice given.
 */
export function checkAnimationLimits(source: SourceImage): void {
  const { animation } = source;
  if (animation === null) return;
  const advice = "Send animated: false (anim_false), or a still output format, for its first frame.";
  if (animation.frames > ANIMATION_LIMITS.max_frames) {
    throw new ProblemError("image_too_large", `The animation has ${animation.frames} frames; the limit is ${ANIMATION_LIMITS.max_frames}. ${advice}`, {
      extensions: { limit_frames: ANIMATION_LIMITS.max_frames },
    });
  }
  const pixelsPerFrame = source.width * source.height;
  const total = pixelsPerFrame * animation.frames;
  if (total > ANIMATION_LIMITS.max_total_pixels) {
    throw new ProblemError(
      "image_too_large",
      `The animation has ${animation.frames} frames of ${pixelsPerFrame} pixels (${total} in all); the limit across frames is ${ANIMATION_LIMITS.max_total_pixels}. ${advice}`,
      { extensions: { limit_total_pixels: ANIMATION_LIMITS.max_total_pixels } },
    );
  }
}

/**
 * A decoder that stops on truncation or corrupt data: of every frame when `animated` (libvips
 * stacks them into one image, pageHeight apart), otherwise of the first frame/page.
 */
export function openSource(input: Uint8Array, animated = false): Sharp {
  const image = sharp(input, {
    limitInputPixels: animated ? ANIMATION_LIMITS.max_total_pixels : IMAGE_INPUT_LIMITS.max_input_pixels,
    failOn: "error",
    ...(animated ? { pages: -1 } : { page: 0, pages: 1 }),
  });
  // libvips stops this pipeline when the call's time is up (the call was answered at its deadline).
  const seconds = secondsLeft();
  return seconds === null ? image : image.timeout({ seconds });
}

function headerFailure(error: unknown): ProblemError {
  const message = error instanceof Error ? error.message : String(error);
  if (/unsupported image format|Input Buffer is empty/i.test(message)) {
    return new ProblemError("unsupported_media_type", "The source is not an image in a supported format.");
  }
  return new ProblemError("image_unreadable", `The image header cannot be read: ${message}`);
}

/** Maps a failure of the full decode (libvips reads pixels lazily) to a 4xx. */
export function decodeFailure(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return new ProblemError("image_too_large", `The image has more than ${IMAGE_INPUT_LIMITS.max_input_pixels} pixels.`, {
      extensions: { limit_pixels: IMAGE_INPUT_LIMITS.max_input_pixels },
    });
  }
  return new ProblemError("image_unreadable", `The image is corrupt or truncated: ${message}`);
}
