// Decides, from facts alone, whether and to what size an image is rewritten.
// Shared by compress (which then encodes) and analyze's projection (which estimates).
import type { PdfImageKeptReason } from "../../contracts/origin/pdf-compress.ts";
import type { ImageFacts } from "./image-facts.ts";
import type { ImageTargets } from "./profiles.ts";

/** The reasons decided from facts; the rest of the contract's list are found while encoding. */
export type KeepReason = Exclude<PdfImageKeptReason, "not_smaller" | "decode_failed" | "restored_for_quality" | "jpeg_already_at_quality">;

export type ImagePlan =
  | { action: "keep"; reason: KeepReason }
  | { action: "rewrite"; width: number; height: number; downsampled: boolean; lossyInput: boolean };

const REWRITABLE_FAMILIES = new Set(["DeviceGray", "DeviceRGB", "DeviceCMYK", "CalGray", "CalRGB", "ICCBased", "Indexed"]);
const LOSSY_FILTERS = new Set(["DCTDecode", "JPXDecode"]);
const MIN_REWRITE_BYTES = 2048;
// Placements computed from PDF reals: an image meant to be at max_dpi is not resampled for rounding.
const DPI_TOLERANCE = 1.01;
// Re-encoding a JPEG at about its own quality only compounds the loss.
const JPEG_QUALITY_MARGIN = 5;

function colourSpaceRewritable(image: ImageFacts): boolean {
  const { colorSpace } = image;
  if (colorSpace.family === "Indexed") return colorSpace.base !== null && REWRITABLE_FAMILIES.has(colorSpace.base.family) && colorSpace.base.family !== "Indexed";
  // JPX carries its colour space in the codestream when the dictionary has none.
  if (colorSpace.family === "unknown") return image.filters.includes("JPXDecode");
  return REWRITABLE_FAMILIES.has(colorSpace.family);
}

export function planImage(image: ImageFacts, targets: ImageTargets): ImagePlan {
  if (image.softMaskOf.length > 0) return { action: "keep", reason: "soft_mask" };
  if (image.placement === null) return { action: "keep", reason: "not_drawn" };
  if (image.isStencilMask || image.bitsPerComponent === 1) return { action: "keep", reason: "bilevel" };
  if (!colourSpaceRewritable(image)) return { action: "keep", reason: "colorspace_kept" };
  // A soft mask overrides /Mask (ISO 32000-1, Table 89), so only an effective colour-key or stencil mask pins the samples.
  if (image.hasMask && image.softMask === null) return { action: "keep", reason: "explicit_mask" };
  if (image.alphaInData) return { action: "keep", reason: "alpha_in_data" };
  if (image.bytes < MIN_REWRITE_BYTES) return { action: "keep", reason: "too_small" };
  const lossyInput = image.filters.some((filter) => LOSSY_FILTERS.has(filter));
  const { minDpi } = image.placement;
  const downsampled = minDpi > targets.targetDpi * targets.downsampleThreshold || (targets.maxDpi !== null && minDpi > targets.maxDpi * DPI_TOLERANCE);
  const scale = downsampled ? targets.targetDpi / minDpi : 1;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  return { action: "rewrite", width, height, downsampled, lossyInput };
}

/**
 * Whether a JPEG kept at its size is left as it is rather than re-encoded at `quality` (known
 * once a perceptual floor has chosen it): a re-encode at about its own quality only adds loss.
 */
export function jpegAlreadyAtQuality(image: ImageFacts, plan: Extract<ImagePlan, { action: "rewrite" }>, quality: number, grayscale: boolean): boolean {
  const jpegQuality = image.jpegQuality?.quality ?? null;
  return !plan.downsampled && !grayscale && jpegQuality !== null && jpegQuality <= quality + JPEG_QUALITY_MARGIN;
}
