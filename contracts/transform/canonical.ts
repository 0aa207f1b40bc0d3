// One derivative, one cache entry, one charge: every way of writing the same operation
// must canonicalize to the same string, so order, aliases, defaults and parameters that
// cannot change the output are all folded away here.
import { autoQualityLevel, DEFAULT_QUALITY_LEVEL } from "../perceptual-quality.ts";
import { canonicalTokens, writtenTokens, type TransformSpec } from "./registry.ts";
import {
  COMPASS_FOCAL_POINTS,
  DEFAULT_FIT,
  DEFAULT_GAMMA,
  DEFAULT_GRAVITY,
  DEFAULT_JPEG_BACKGROUND,
  DEFAULT_OVERLAY_GRAVITY,
  DEFAULT_OVERLAY_OPACITY,
  DEFAULT_QUALITY,
  FACTS_FORMAT,
  MAX_OUTPUT_PIXELS,
  MAX_OUTPUT_SIDE,
  type Fit,
  type FormatChoice,
  type ResolvedTransform,
  type TransformOverlay,
  type TransformQuality,
} from "./token-values.ts";

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

/** The quality a spec asks for; a placeholder has its own encoding and facts none, so q_ cannot change them. */
export function resolveQuality(spec: Pick<TransformSpec, "quality" | "placeholder" | "format">): TransformQuality {
  if (spec.placeholder !== undefined || spec.format === FACTS_FORMAT || spec.quality === undefined) return DEFAULT_QUALITY;
  if (typeof spec.quality === "number") return spec.quality;
  // The parser admits only the spellings autoQualityLevel reads.
  return { auto: autoQualityLevel(spec.quality) ?? DEFAULT_QUALITY_LEVEL };
}

/** The image format a spec asks for; a placeholder has its own encoding, so f_ cannot change it, and f_json asks for none. */
export function resolveFormat(spec: Pick<TransformSpec, "format" | "placeholder">): FormatChoice | undefined {
  return spec.placeholder === undefined && spec.format !== FACTS_FORMAT ? spec.format : undefined;
}

/**
 * The overlay a spec draws. lg_, lw_ and lo_ without l_ describe nothing, and an overlay at
 * opacity 0 draws nothing: both are the plain image, so they fold away rather than mint a derivative.
 */
export function resolveOverlay(spec: Pick<TransformSpec, "overlay" | "overlayGravity" | "overlayWidth" | "overlayOpacity">): TransformOverlay | undefined {
  const opacity = spec.overlayOpacity ?? DEFAULT_OVERLAY_OPACITY;
  if (spec.overlay === undefined || opacity === 0) return undefined;
  return { fileId: spec.overlay, gravity: spec.overlayGravity ?? DEFAULT_OVERLAY_GRAVITY, width: spec.overlayWidth, opacity };
}

// Gravity places the image only when cropping (cover) or padding (contain); content-aware
// placement and focal points exist only for a crop. A focal point at a corner, an edge's middle or
// the centre crops as that compass name does (the crop is pushed against the picture's edges), so
// it is spelled as that name.
function resolveGravity(asked: TransformSpec["gravity"], fit: Fit): Pick<ResolvedTransform, "gravity" | "focus"> {
  if (asked === undefined || (fit !== "cover" && fit !== "contain")) return { gravity: DEFAULT_GRAVITY };
  if (typeof asked === "string") return { gravity: asked === "auto" && fit !== "cover" ? DEFAULT_GRAVITY : asked };
  if (fit !== "cover") return { gravity: DEFAULT_GRAVITY };
  const compass = COMPASS_FOCAL_POINTS.find(([, point]) => point.x === asked.x && point.y === asked.y);
  return compass === undefined ? { gravity: DEFAULT_GRAVITY, focus: asked } : { gravity: compass[0] };
}

/**
 * The background a spec asks for, where it can change the output as far as the URL tells: the
 * padding of fit_contain, or the flattening of transparency when the output may be a JPEG (no f_,
 * f_jpeg or f_auto; a placeholder is a WebP). White is a JPEG's own background, so bg_ffffff stays
 * only where it replaces transparent padding (fit_contain on an output that may keep alpha).
 */
function resolveBackground(spec: TransformSpec, fit: Fit, format: FormatChoice | undefined): string | undefined {
  if (spec.background === undefined || spec.format === FACTS_FORMAT) return undefined;
  const contain = fit === "contain";
  const mayBeJpeg = spec.placeholder === undefined && (format === undefined || format === "jpeg" || format === "auto");
  if (!contain && !mayBeJpeg) return undefined;
  const mayKeepAlpha = spec.placeholder !== undefined || format !== "jpeg";
  if (spec.background === DEFAULT_JPEG_BACKGROUND && !(contain && mayKeepAlpha)) return undefined;
  return spec.background;
}

// A colour adjustment at its neutral value changes nothing; the facts measure the source, which it does not touch.
const adjustment = (value: number | undefined, neutral: number, facts: boolean) => (facts || value === neutral ? undefined : value);

export function resolveTransform(spec: TransformSpec): ResolvedTransform {
  const facts = spec.format === FACTS_FORMAT ? (true as const) : undefined;
  const { width, height } = scaledSize(spec);
  // With one side or none, the aspect ratio decides the box: every fit gives the same image.
  const boxed = width !== undefined && height !== undefined;
  const fit = boxed ? (spec.fit ?? DEFAULT_FIT) : DEFAULT_FIT;
  const { gravity, focus } = resolveGravity(spec.gravity, fit);
  return {
    width,
    height,
    fit,
    gravity,
    focus,
    // A placeholder has its own encoding: q_ and f_ cannot change it, so they mint no new derivative.
    quality: resolveQuality(spec),
    format: resolveFormat(spec),
    rotate: spec.rotate === undefined || spec.rotate === "auto" ? 0 : spec.rotate,
    flip: spec.flip,
    crop: spec.crop,
    trim: spec.trim,
    background: resolveBackground(spec, fit, resolveFormat(spec)),
    brightness: adjustment(spec.brightness, 0, facts === true),
    contrast: adjustment(spec.contrast, 0, facts === true),
    saturation: adjustment(spec.saturation, 0, facts === true),
    gamma: adjustment(spec.gamma, DEFAULT_GAMMA, facts === true),
    blur: spec.blur,
    sharpen: spec.sharpen,
    // The facts are the source's and the output's size: frames and placeholders change neither.
    animated: facts ? true : (spec.animated ?? true),
    placeholder: facts ? undefined : spec.placeholder,
    page: spec.page,
    overlay: resolveOverlay(spec),
    ...(facts ? { facts } : {}),
  };
}

// Tokens in the registry's order, defaults omitted. The result parses back to the same operation;
// a transform that changes nothing (e.g. "r_auto") canonicalizes to the empty string.
export function canonicalTransform(spec: TransformSpec): string {
  return canonicalTokens(resolveTransform(spec)).join(",");
}

/**
 * The transform as a URL writes it and a signature signs it. Without a preset, the canonical
 * transform. With one (`t_<name>`), the name and the other tokens as given, unfolded: what they
 * override is only known once the edge has the preset, so a token that looks like a default here
 * (`q_76`, `fit_cover` without a size) may still change the output and must stay signed.
 */
export function urlTransform(spec: TransformSpec): string {
  return spec.preset === undefined ? canonicalTransform(spec) : writtenTokens(spec).join(",");
}
