// One derivative, one cache entry, one charge: every way of writing the same operation
// must canonicalize to the same string, so order, aliases, defaults and parameters that
// cannot change the output are all folded away here.
import { autoQualityLevel, DEFAULT_QUALITY_LEVEL, type AutoQuality, type QualityLevel } from "../perceptual-quality.ts";
import {
  DEFAULT_FIT,
  DEFAULT_GRAVITY,
  DEFAULT_QUALITY,
  MAX_OUTPUT_PIXELS,
  MAX_OUTPUT_SIDE,
  type Fit,
  type FormatChoice,
  type Gravity,
  type PlaceholderKind,
  type TransformSpec,
} from "./tokens.ts";

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
  blur?: number;
  sharpen?: number;
  // false: the first frame of an animated source; a still source ignores it.
  animated: boolean;
  // Serve this placeholder of the shaped image instead of the image (its own format and quality).
  placeholder?: PlaceholderKind;
}

/** A transform at a fixed encoder quality: all an encoder without the perceptual metric (the edge's) can make. */
export type FixedQualityTransform = ResolvedTransform & { quality: number };

export function hasFixedQuality(op: ResolvedTransform): op is FixedQualityTransform {
  return typeof op.quality === "number";
}

// dpr comes from the device (client hints, srcset), so an oversized product is scaled
// down to the limits instead of refused; explicit w_/h_ beyond them are refused by the parser.
function scaledSize(spec: TransformSpec): { width?: number; height?: number } {
  const dpr = spec.dpr ?? 1;
  const width = spec.width === undefined ? undefined : spec.width * dpr;
  const height = spec.height === undefined ? undefined : spec.height * dpr;
  const longest = Math.max(width ?? 0, height ?? 0);
  let shrink = longest > MAX_OUTPUT_SIDE ? MAX_OUTPUT_SIDE / longest : 1;
  if (width !== undefined && height !== undefined) {
    const pixels = width * shrink * height * shrink;
    if (pixels > MAX_OUTPUT_PIXELS) shrink *= Math.sqrt(MAX_OUTPUT_PIXELS / pixels);
  }
  // Rounding down when shrinking keeps the product within the limits; the epsilon absorbs
  // float error on a side that should land exactly on MAX_OUTPUT_SIDE.
  const toPixels = shrink === 1 ? Math.round : (v: number) => Math.floor(v + 1e-6);
  return {
    width: width === undefined ? undefined : Math.max(1, toPixels(width * shrink)),
    height: height === undefined ? undefined : Math.max(1, toPixels(height * shrink)),
  };
}

/** The quality a spec asks for; a placeholder has its own encoding, so q_ cannot change it. */
export function resolveQuality(spec: Pick<TransformSpec, "quality" | "placeholder">): TransformQuality {
  if (spec.placeholder !== undefined || spec.quality === undefined) return DEFAULT_QUALITY;
  if (typeof spec.quality === "number") return spec.quality;
  // The parser admits only the spellings autoQualityLevel reads.
  return { auto: autoQualityLevel(spec.quality) ?? DEFAULT_QUALITY_LEVEL };
}

/** A quality as q_'s one spelling of it: `auto` for the default level (`auto:good` is its alias), as Cloudinary writes it. */
export function qualityValue(quality: TransformQuality): number | AutoQuality {
  if (typeof quality === "number") return quality;
  return quality.auto === DEFAULT_QUALITY_LEVEL ? "auto" : `auto:${quality.auto}`;
}

/** The format a spec asks for; a placeholder has its own encoding, so f_ cannot change it. */
export function resolveFormat(spec: Pick<TransformSpec, "format" | "placeholder">): FormatChoice | undefined {
  return spec.placeholder === undefined ? spec.format : undefined;
}

export function resolveTransform(spec: TransformSpec): ResolvedTransform {
  const { width, height } = scaledSize(spec);
  // With one side or none, the aspect ratio decides the box: every fit gives the same image.
  const boxed = width !== undefined && height !== undefined;
  const fit = boxed ? (spec.fit ?? DEFAULT_FIT) : DEFAULT_FIT;
  // Gravity places the image only when cropping (cover) or padding (contain); content-aware
  // placement exists only for a crop.
  let gravity = fit === "cover" || fit === "contain" ? (spec.gravity ?? DEFAULT_GRAVITY) : DEFAULT_GRAVITY;
  if (gravity === "auto" && fit !== "cover") gravity = DEFAULT_GRAVITY;
  return {
    width,
    height,
    fit,
    gravity,
    // A placeholder has its own encoding: q_ and f_ cannot change it, so they mint no new derivative.
    quality: resolveQuality(spec),
    format: resolveFormat(spec),
    rotate: spec.rotate === undefined || spec.rotate === "auto" ? 0 : spec.rotate,
    blur: spec.blur,
    sharpen: spec.sharpen,
    animated: spec.animated ?? true,
    placeholder: spec.placeholder,
  };
}

// Tokens in a fixed order, defaults omitted. The result parses back to the same operation;
// a transform that changes nothing (e.g. "r_auto") canonicalizes to the empty string.
export function canonicalTransform(spec: TransformSpec): string {
  const op = resolveTransform(spec);
  const tokens: string[] = [];
  if (op.width !== undefined) tokens.push(`w_${op.width}`);
  if (op.height !== undefined) tokens.push(`h_${op.height}`);
  if (op.fit !== DEFAULT_FIT) tokens.push(`fit_${op.fit}`);
  if (op.gravity !== DEFAULT_GRAVITY) tokens.push(`g_${op.gravity}`);
  if (op.quality !== DEFAULT_QUALITY) tokens.push(`q_${qualityValue(op.quality)}`);
  if (op.format !== undefined) tokens.push(`f_${op.format}`);
  if (op.rotate !== 0) tokens.push(`r_${op.rotate}`);
  if (op.blur !== undefined) tokens.push(`bl_${op.blur}`);
  if (op.sharpen !== undefined) tokens.push(`sh_${op.sharpen}`);
  if (!op.animated) tokens.push("anim_false");
  if (op.placeholder !== undefined) tokens.push(`ph_${op.placeholder}`);
  return tokens.join(",");
}
