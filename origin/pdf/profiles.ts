// Resolves a compress request to concrete image parameters. The numbers of each
// profile are in PDF_PROFILE_PARAMETERS (workers/contracts/pdf-options.ts), shared
// with the OpenAPI description; this module only applies auto, custom and max_dpi.
import {
  PDF_CUSTOM_BILEVEL_DPI,
  PDF_CUSTOM_DEFAULT_DPI,
  PDF_CUSTOM_DOWNSAMPLE_THRESHOLD,
  PDF_CUSTOM_FLOOR_DPI,
  PDF_DEFAULT_IMAGE_QUALITY,
  PDF_INTENT_PROFILE,
  PDF_PROFILE_PARAMETERS,
} from "../../contracts/pdf-options.ts";
import type { PdfCompressOptions, PdfFixedProfile } from "../../contracts/pdf-options.ts";

export interface ImageTargets {
  profile: PdfFixedProfile | "custom";
  targetDpi: number;
  quality: number;
  downsampleThreshold: number;
  /** A hard ceiling: images above it are downsampled even within the threshold. */
  maxDpi: number | null;
  grayscale: boolean;
  /** The lowest targetDpi a size target may search down to. */
  floorDpi: number;
  /** Where 1-bit images are brought down to (by the JBIG2 pass, with the same threshold). */
  bilevelDpi: number;
}

type TargetOptions = Pick<PdfCompressOptions, "profile" | "intent" | "max_dpi" | "image_quality" | "grayscale">;

export function resolveImageTargets(options: TargetOptions): ImageTargets {
  if (options.profile === "custom") {
    const targetDpi = options.max_dpi ?? PDF_CUSTOM_DEFAULT_DPI;
    return {
      profile: "custom",
      targetDpi,
      quality: options.image_quality,
      downsampleThreshold: PDF_CUSTOM_DOWNSAMPLE_THRESHOLD,
      maxDpi: options.max_dpi,
      grayscale: options.grayscale,
      floorDpi: Math.min(PDF_CUSTOM_FLOOR_DPI, targetDpi),
      bilevelDpi: options.max_dpi ?? PDF_CUSTOM_BILEVEL_DPI,
    };
  }
  const profile = options.profile === "auto" ? (options.intent === null ? "ebook" : PDF_INTENT_PROFILE[options.intent]) : options.profile;
  const parameters = PDF_PROFILE_PARAMETERS[profile];
  const targetDpi = Math.min(parameters.targetDpi, options.max_dpi ?? Number.POSITIVE_INFINITY);
  return {
    profile,
    targetDpi,
    quality: parameters.quality === "image_quality" ? options.image_quality : parameters.quality,
    downsampleThreshold: parameters.downsampleThreshold,
    maxDpi: options.max_dpi,
    grayscale: options.grayscale,
    floorDpi: Math.min(parameters.floorDpi, targetDpi),
    bilevelDpi: Math.min(parameters.bilevelDpi, options.max_dpi ?? Number.POSITIVE_INFINITY),
  };
}

/** The targets of a fixed profile with default options, as analyze projects them. */
export function defaultProfileTargets(profile: PdfFixedProfile): ImageTargets {
  return resolveImageTargets({ profile, intent: null, max_dpi: null, image_quality: PDF_DEFAULT_IMAGE_QUALITY, grayscale: false });
}
