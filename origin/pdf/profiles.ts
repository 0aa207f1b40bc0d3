// Resolves a compress request to concrete image parameters. The numbers of each
// profile are in PDF_PROFILE_PARAMETERS (contracts/pdf-options.ts), shared with the
// OpenAPI description; this module only applies auto, custom, max_dpi and min_quality.
import {
  PDF_CUSTOM_DOWNSAMPLE_THRESHOLD,
  PDF_CUSTOM_FLOOR_DPI,
  PDF_DEFAULT_IMAGE_QUALITY,
  PDF_DEFAULT_MIN_QUALITY,
  PDF_INTENT_PROFILE,
  PDF_PROFILE_PARAMETERS,
} from "../../contracts/pdf-options.ts";
import type { PdfCompressOptions, PdfFixedProfile } from "../../contracts/pdf-options.ts";

export interface ImageTargets {
  profile: PdfFixedProfile | "custom";
  /** Infinity when nothing sets one (`custom` without `max_dpi`): no image is resampled. */
  targetDpi: number;
  quality: number;
  downsampleThreshold: number;
  /** A hard ceiling: images above it are downsampled even within the threshold. */
  maxDpi: number | null;
  grayscale: boolean;
  /** The lowest targetDpi a size target may search down to. */
  floorDpi: number;
  /** Where 1-bit images are brought down to (by the JBIG2 pass, with the same threshold); Infinity keeps them. */
  bilevelDpi: number;
}

type TargetOptions = Pick<PdfCompressOptions, "profile" | "intent" | "max_dpi" | "image_quality" | "grayscale" | "min_quality" | "max_size_mb" | "max_base64_bytes">;

export function resolveImageTargets(options: TargetOptions): ImageTargets {
  const hasSizeTarget = options.max_size_mb !== null || options.max_base64_bytes !== null;
  // min_quality is the floor of the size search: under a size target no image is encoded below it.
  const floored = (quality: number) => (hasSizeTarget ? Math.max(quality, options.min_quality) : quality);
  if (options.profile === "custom") {
    const targetDpi = options.max_dpi ?? Number.POSITIVE_INFINITY;
    return {
      profile: "custom",
      targetDpi,
      quality: floored(options.image_quality),
      downsampleThreshold: PDF_CUSTOM_DOWNSAMPLE_THRESHOLD,
      maxDpi: options.max_dpi,
      grayscale: options.grayscale,
      floorDpi: Math.min(PDF_CUSTOM_FLOOR_DPI, targetDpi),
      bilevelDpi: targetDpi,
    };
  }
  const profile = options.profile === "auto" ? (options.intent === null ? "ebook" : PDF_INTENT_PROFILE[options.intent]) : options.profile;
  const parameters = PDF_PROFILE_PARAMETERS[profile];
  const targetDpi = Math.min(parameters.targetDpi, options.max_dpi ?? Number.POSITIVE_INFINITY);
  return {
    profile,
    targetDpi,
    quality: floored(parameters.quality === "image_quality" ? options.image_quality : parameters.quality),
    downsampleThreshold: parameters.downsampleThreshold,
    maxDpi: options.max_dpi,
    grayscale: options.grayscale,
    floorDpi: Math.min(parameters.floorDpi, targetDpi),
    bilevelDpi: Math.min(parameters.bilevelDpi, options.max_dpi ?? Number.POSITIVE_INFINITY),
  };
}

/** The targets of a fixed profile with default options, as analyze projects them. */
export function defaultProfileTargets(profile: PdfFixedProfile): ImageTargets {
  return resolveImageTargets({
    profile,
    intent: null,
    max_dpi: null,
    image_quality: PDF_DEFAULT_IMAGE_QUALITY,
    grayscale: false,
    min_quality: PDF_DEFAULT_MIN_QUALITY,
    max_size_mb: null,
    max_base64_bytes: null,
  });
}
