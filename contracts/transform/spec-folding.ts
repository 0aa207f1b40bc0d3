// How the tokens of a transform fold into the operation it performs (registry.ts resolves each
// field with these): one derivative, one cache entry, one charge, so aliases, defaults and tokens
// that cannot change the output given the others are folded away. Each rule takes only the spec
// fields it reads, as the parser types them.
import { autoQualityLevel, DEFAULT_QUALITY_LEVEL, type AutoQuality } from "../perceptual-quality.ts";
import {
  COMPASS_FOCAL_POINTS,
  DEFAULT_FIT,
  DEFAULT_GRAVITY,
  DEFAULT_JPEG_BACKGROUND,
  DEFAULT_OVERLAY_GRAVITY,
  DEFAULT_OVERLAY_OPACITY,
  DEFAULT_QUALITY,
  FACTS_FORMAT,
  MAX_OUTPUT_PIXELS,
  MAX_OUTPUT_SIDE,
  type Fit,
  type FocalPoint,
  type FormatChoice,
  type Gravity,
  type OverlayGravity,
  type PlaceholderKind,
  type TransformQuality,
  type VideoFormat,
  VIDEO_FORMATS,
} from "./token-values.ts";

type AskedFormat = FormatChoice | VideoFormat | typeof FACTS_FORMAT;

// dpr comes from the device (client hints, srcset), so an oversized product is scaled
// down to the limits instead of refused; explicit w_/h_ beyond them are refused by the parser.
export function scaledSize(spec: { width?: number; height?: number; dpr?: number }): { width?: number; height?: number } {
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

/** With one side or none, the aspect ratio decides the box: every fit gives the same image. */
export function resolveFit(spec: { width?: number; height?: number; fit?: Fit }): Fit {
  return spec.width !== undefined && spec.height !== undefined ? (spec.fit ?? DEFAULT_FIT) : DEFAULT_FIT;
}

/** The quality a spec asks for; a placeholder and a video have their own encoding and facts none, so q_ cannot change them. */
export function resolveQuality(spec: { quality?: number | AutoQuality; placeholder?: PlaceholderKind; format?: AskedFormat }): TransformQuality {
  if (spec.placeholder !== undefined || spec.format === FACTS_FORMAT || asksVideo(spec) !== undefined || spec.quality === undefined) return DEFAULT_QUALITY;
  if (typeof spec.quality === "number") return spec.quality;
  // The parser admits only the spellings autoQualityLevel reads.
  return { auto: autoQualityLevel(spec.quality) ?? DEFAULT_QUALITY_LEVEL };
}

function isVideoFormat(format: AskedFormat | undefined): format is VideoFormat {
  return (VIDEO_FORMATS as readonly string[]).includes(format ?? "");
}

/** The image format a spec asks for; a placeholder has its own encoding, so f_ cannot change it, and f_json and a video ask for none. */
export function resolveFormat(spec: { format?: AskedFormat; placeholder?: PlaceholderKind }): FormatChoice | undefined {
  return spec.placeholder === undefined && spec.format !== FACTS_FORMAT && !isVideoFormat(spec.format) ? spec.format : undefined;
}

/** The video a spec asks for (f_mp4, f_webm); a placeholder is one still preview, so f_ cannot change it. */
export function asksVideo(spec: { format?: AskedFormat; placeholder?: PlaceholderKind }): VideoFormat | undefined {
  return spec.placeholder === undefined && isVideoFormat(spec.format) ? spec.format : undefined;
}

/** f_json: the facts measure the source, so what would only change the image folds away under it. */
export function asksFacts(spec: { format?: AskedFormat }): boolean {
  return spec.format === FACTS_FORMAT;
}

export interface AskedOverlay {
  overlay?: string;
  overlayGravity?: OverlayGravity;
  overlayWidth?: number;
  overlayOpacity?: number;
}

/**
 * The overlay a spec draws. lg_, lw_ and lo_ without l_ describe nothing, and an overlay at
 * opacity 0 draws nothing: both are the plain image, so they fold away rather than mint a derivative.
 */
export function resolveOverlay(spec: AskedOverlay): { fileId: string; gravity: OverlayGravity; width?: number; opacity: number } | undefined {
  const opacity = spec.overlayOpacity ?? DEFAULT_OVERLAY_OPACITY;
  if (spec.overlay === undefined || opacity === 0) return undefined;
  return { fileId: spec.overlay, gravity: spec.overlayGravity ?? DEFAULT_OVERLAY_GRAVITY, width: spec.overlayWidth, opacity };
}

// Gravity places the image only when cropping (cover) or padding (contain); content-aware
// placement and focal points exist only for a crop. A focal point at a corner, an edge's middle or
// the centre crops as that compass name does (the crop is pushed against the picture's edges), so
// it is spelled as that name.
export function resolveGravity(asked: Gravity | FocalPoint | undefined, fit: Fit): { gravity: Gravity; focus?: FocalPoint } {
  if (asked === undefined || (fit !== "cover" && fit !== "contain")) return { gravity: DEFAULT_GRAVITY };
  if (typeof asked === "string") return { gravity: asked === "auto" && fit !== "cover" ? DEFAULT_GRAVITY : asked };
  if (fit !== "cover") return { gravity: DEFAULT_GRAVITY };
  const compass = COMPASS_FOCAL_POINTS.find(([, point]) => point.x === asked.x && point.y === asked.y);
  return compass === undefined ? { gravity: DEFAULT_GRAVITY, focus: asked } : { gravity: compass[0] };
}

/**
 * The background a spec asks for, where it can change the output as far as the URL tells: the
 * padding of fit_contain, or the flattening of transparency when the output may be a JPEG (no f_,
 * f_jpeg or f_auto; a placeholder is a WebP) or is a video (which has no alpha either). White is a
 * JPEG's and a video's own background, so bg_ffffff stays only where it replaces transparent
 * padding (fit_contain on an output that may keep alpha).
 */
export function resolveBackground(spec: { background?: string; format?: AskedFormat; placeholder?: PlaceholderKind; width?: number; height?: number; fit?: Fit }): string | undefined {
  if (spec.background === undefined || spec.format === FACTS_FORMAT) return undefined;
  const format = resolveFormat(spec);
  const contain = resolveFit(spec) === "contain";
  const video = asksVideo(spec) !== undefined;
  const mayBeJpeg = spec.placeholder === undefined && (video || format === undefined || format === "jpeg" || format === "auto");
  if (!contain && !mayBeJpeg) return undefined;
  const mayKeepAlpha = spec.placeholder !== undefined || (format !== "jpeg" && !video);
  if (spec.background === DEFAULT_JPEG_BACKGROUND && !(contain && mayKeepAlpha)) return undefined;
  return spec.background;
}

/** A colour adjustment at its neutral value changes nothing; the facts measure the source, which it does not touch. */
export function colourAdjustment(value: number | undefined, neutral: number, spec: { format?: AskedFormat }): number | undefined {
  return asksFacts(spec) || value === neutral ? undefined : value;
}
