// The value sets, ranges and defaults of the transform tokens, and the shape of the operation a
// transform resolves to. Plain data with no schema import: the registry (registry.ts) declares each
// token over these, and the browser URL builder, the console and the origin contract read them.
import { PDF_MAX_PAGES } from "../limits/pdf.ts";
import { DEFAULT_QUALITY_LEVEL, type AutoQuality, type QualityLevel } from "../perceptual-quality.ts";

export const MAX_OUTPUT_SIDE = 8192;
export const MAX_OUTPUT_PIXELS = 40_000_000;
// A real transform is well under 100 characters; the cap keeps hostile segments cheap to refuse.
export const MAX_TRANSFORM_LENGTH = 512;

export const formatTokenValues = ["jpg", "jpeg", "webp", "avif", "png", "auto"] as const;
// `f_json`: the source's facts as JSON instead of an image (contracts/origin/image-facts.ts).
export const FACTS_FORMAT = "json";
export const fitValues = ["inside", "cover", "contain", "fill"] as const;
// Long compass names, the same strings sharp takes as `position`, so the origin maps them 1:1.
export const gravityValues = [
  "center",
  "north",
  "northeast",
  "east",
  "southeast",
  "south",
  "southwest",
  "west",
  "northwest",
  "auto",
] as const;
// `auto` applies the EXIF orientation; it is also what happens without `r_`. The angles
// rotate clockwise after the EXIF orientation has been applied.
export const rotateValues = ["auto", "90", "180", "270"] as const;
// Mirror left-right (h), top-bottom (v) or both (hv), after the rotation.
export const flipValues = ["h", "v", "hv"] as const;
export type Flip = (typeof flipValues)[number];
// Animation is kept by default; the token exists only to turn it off.
export const animValues = ["false"] as const;
// `lqip` serves the image's placeholder preview (a blurred WebP of at most 16 px a side) instead
// of the image: made at the origin, cached and billed like any derivative.
export const placeholderValues = ["lqip"] as const;

export const sizeRange = { min: 1, max: MAX_OUTPUT_SIDE } as const;
export const qualityRange = { min: 1, max: 100 } as const;
export const blurRange = { min: 0.3, max: 100 } as const;
export const sharpenRange = { min: 0.3, max: 10 } as const;
export const dprRange = { min: 1, max: 4 } as const;
// Pages count from 1, up to the most pages a PDF may have.
export const pageRange = { min: 1, max: PDF_MAX_PAGES } as const;
/** A PDF page drawn without a size asked: imgproxy's and most viewers' resolution. */
export const PDF_PAGE_DPI = 150;
// Decimal values take at most this many fraction digits, so near-identical sigmas
// cannot mint unbounded distinct derivatives.
export const MAX_FRACTION_DIGITS = 2;
// HMAC-SHA256 truncated to 16 bytes (128 bits), base64url without padding.
export const SIGNATURE_LENGTH = 22;
// A preset's name (`t_<name>`, POST /v1/presets): no comma or slash, so it sits in a token and a path segment as it is.
export const PRESET_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const PRESET_NAME_RULE = "1 to 40 lower-case letters, digits, _ or -, starting with a letter or digit";

export const OUTPUT_FORMATS = ["jpeg", "webp", "avif", "png"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type FormatChoice = OutputFormat | "auto";
export type Fit = (typeof fitValues)[number];
export type Gravity = (typeof gravityValues)[number];
export type Rotation = 90 | 180 | 270;
export type PlaceholderKind = (typeof placeholderValues)[number];

// What a transform does without the token; canonicalTransform drops tokens equal to these.
export const DEFAULT_QUALITY = 76;
export const DEFAULT_FIT: Fit = "inside";
export const DEFAULT_GRAVITY: Gravity = "center";

// A fixed encoder quality, or q_auto's level: the origin searches the lowest quality reaching its score.
export type TransformQuality = number | { auto: QualityLevel };

// The operation a transform performs, with defaults applied and dpr folded into the size.
// This is what the compute stage executes and what canonicalTransform serializes.
export interface ResolvedTransform {
  width?: number;
  height?: number;
  fit: Fit;
  gravity: Gravity;
  quality: TransformQuality;
  // undefined: keep the source's format.
  format?: FormatChoice;
  // Clockwise degrees after the EXIF orientation, which is always applied.
  rotate: 0 | 90 | 180 | 270;
  flip?: Flip;
  blur?: number;
  sharpen?: number;
  // false: the first frame of an animated source; a still source ignores it.
  animated: boolean;
  // Serve this placeholder of the shaped image instead of the image (its own format and quality).
  placeholder?: PlaceholderKind;
  // The page of a PDF or multi-page TIFF, from 1.
  page?: number;
  // f_json: answer the source's facts (and the output size the rest gives) instead of an image.
  facts?: true;
}

/** A transform at a fixed encoder quality: all an encoder without the perceptual metric (the edge's) can make. */
export type FixedQualityTransform = ResolvedTransform & { quality: number };

export function hasFixedQuality(op: ResolvedTransform): op is FixedQualityTransform {
  return typeof op.quality === "number";
}

/** A quality as q_'s one spelling of it: `auto` for the default level (`auto:good` is its alias), as Cloudinary writes it. */
export function qualityValue(quality: TransformQuality): number | AutoQuality {
  if (typeof quality === "number") return quality;
  return quality.auto === DEFAULT_QUALITY_LEVEL ? "auto" : `auto:${quality.auto}`;
}
