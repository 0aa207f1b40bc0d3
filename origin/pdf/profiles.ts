// Resolves a compress request to concrete image parameters. The numbers of each
// profile are in PDF_PROFILE_PARAMETERS (contracts/pdf-options.ts), shared with the
// OpenAPI description; this module only applies auto, custom, max_dpi and min_quality.
import {
  PDF_CUSTOM_DOWNSAMPLE_THRESHOLD,
  PDF_CUSTOM_FLOOR_DPI,
  PDF_CUSTOM_PERCEPTUAL_FLOOR,
  PDF_DEFAULT_MIN_QUALITY,
  PDF_INTENT_PROFILE,
  PDF_PROFILE_PARAMETERS,
} from "../../contracts/pdf-options.ts";
import type { PdfCompressOptions, PdfFixedProfile } from "../../contracts/pdf-options.ts";

export interface ImageTargets {
  profile: PdfFixedProfile | "custom";
  /** Infinity when nothing sets one (`custom` without `max_dpi`): no image is resampled. */
  targetDpi: number;
  /**
   * Without a perceptual floor, the JPEG quality of every re-encoded image; with one, a ceiling on
   * the quality the floor gives an image (100 unless a size target's step lowers it).
   */
  quality: number;
  /** SSIMULACRA 2 score each re-encoded image reaches through the lowest quality that does (perceptual-floor.ts); null when `image_quality` fixes the quality. */
  perceptualFloor: number | null;
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

/** The quality of an image rewritten at `targets`, given what its perceptual floor asks (computed only when there is one). */
export async function imageQuality(targets: ImageTargets, floorQuality: (floor: number) => Promise<number>): Promise<number> {
  if (targets.perceptualFloor === null) return targets.quality;
  return Math.min(targets.quality, await floorQuality(targets.perceptualFloor));
}

export const UNCAPPED_QUALITY = 100;

export function resolveImageTargets(options: TargetOptions): ImageTargets {
  const hasSizeTarget = options.max_size_mb !== null || options.max_base64_bytes !== null;
  // min_quality is the floor of the size search: under a size target no fixed quality is below it.
  const fixed = options.image_quality === null ? null : hasSizeTarget ? Math.max(options.image_quality, options.min_quality) : options.image_quality;
  const quality = (floor: number) => (fixed === null ? { quality: UNCAPPED_QUALITY, perceptualFloor: floor } : { quality: fixed, perceptualFloor: null });
  if (options.profile === "custom") {
    const targetDpi = options.max_dpi ?? Number.POSITIVE_INFINITY;
    return {
      profile: "custom",
      targetDpi,
      ...quality(PDF_CUSTOM_PERCEPTUAL_FLOOR),
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
    ...quality(parameters.perceptualFloor),
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
    image_quality: null,
    grayscale: false,
    min_quality: PDF_DEFAULT_MIN_QUALITY,
    max_size_mb: null,
    max_base64_bytes: null,
  });
}
