// How the tokens of a transform fold into the operation it performs (registry.ts resolves each
// field with these): one derivative, one cache entry, one charge, so aliases, defaults and tokens
// that cannot change the output given the others are folded away. Each rule takes only the spec
// fields it reads, as the parser types them.
import { fixedWidth, type AutoWidth } from "./hint-tokens.ts";
import { autoQualityLevel, DEFAULT_QUALITY_LEVEL, type AutoQuality } from "../perceptual-quality.ts";
import {
  COMPASS_FOCAL_POINTS,
  DEFAULT_FIT,
  DEFAULT_GRAVITY,
  DEFAULT_JPEG_BACKGROUND,
  DEFAULT_OVERLAY_GRAVITY,
  DEFAULT_OVERLAY_OPACITY,
  DEFAULT_QUALITY,
  FACE_GRAVITIES,
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
import { DEFAULT_TEXT_COLOUR, DEFAULT_TEXT_PADDING, type AskedText, type OverlayFont } from "./text-overlay.ts";

type AskedFormat = FormatChoice | VideoFormat | typeof FACTS_FORMAT;

// dpr comes from the device (client hints, srcset), so an oversized product is scaled
// down to the limits instead of refused; explicit w_/h_ beyond them are refused by the parser.
// A spec whose hints were not read (dpr_auto, w_auto) resolves to what a request without hints gets.
export function scaledSize(spec: { width?: number | AutoWidth; height?: number; dpr?: number | "auto" }): { width?: number; height?: number } {
  const dpr = typeof spec.dpr === "number" ? spec.dpr : 1;
  const asked = fixedWidth(spec.width);
  // w_auto's width is in device pixels already.
  const width = asked === undefined ? undefined : typeof spec.width === "object" ? asked : asked * dpr;
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
export function resolveFit(spec: { width?: unknown; height?: number; fit?: Fit }): Fit {
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
  overlay?: string | AskedText;
  overlayGravity?: OverlayGravity;
  overlayWidth?: number;
  overlayOpacity?: number;
}

interface OverlayPlacement {
  gravity: OverlayGravity;
  width?: number;
  opacity: number;
}

// lg_, lw_ and lo_ without l_ describe nothing, and an overlay at opacity 0 draws nothing: both are
// the plain image, so they fold away rather than mint a derivative.
function placement(spec: AskedOverlay): OverlayPlacement | undefined {
  const opacity = spec.overlayOpacity ?? DEFAULT_OVERLAY_OPACITY;
  if (spec.overlay === undefined || opacity === 0) return undefined;
  return { gravity: spec.overlayGravity ?? DEFAULT_OVERLAY_GRAVITY, width: spec.overlayWidth, opacity };
}

/** The image overlay a spec draws (`l_file_...`). */
export function resolveOverlay(spec: AskedOverlay): ({ fileId: string } & OverlayPlacement) | undefined {
  const placed = placement(spec);
  return placed === undefined || typeof spec.overlay !== "string" ? undefined : { fileId: spec.overlay, ...placed };
}

export interface AskedTextOverlay extends AskedOverlay {
  textColour?: string;
  textBox?: string;
  textPadding?: number;
}

/** The text overlay a spec draws (`l_text:`); co_, lb_ and lp_ without it describe nothing and fold away. */
export function resolveTextOverlay(
  spec: AskedTextOverlay,
): ({ text: string; font: OverlayFont; size: number; colour: string; box?: string; padding: number } & OverlayPlacement) | undefined {
  const placed = placement(spec);
  if (placed === undefined || spec.overlay === undefined || typeof spec.overlay === "string") return undefined;
  const { text, font, size } = spec.overlay;
  return { text, font, size, colour: spec.textColour ?? DEFAULT_TEXT_COLOUR, box: spec.textBox, padding: spec.textPadding ?? DEFAULT_TEXT_PADDING, ...placed };
}

// Gravity places the image only when cropping (cover) or padding (contain); content-aware and face
// placement and focal points exist only for a crop. A focal point at a corner, an edge's middle or
// the centre crops as that compass name does (the crop is pushed against the picture's edges), so
// it is spelled as that name.
export function resolveGravity(asked: Gravity | FocalPoint | undefined, fit: Fit): { gravity: Gravity; focus?: FocalPoint } {
  if (asked === undefined || (fit !== "cover" && fit !== "contain")) return { gravity: DEFAULT_GRAVITY };
  if (typeof asked === "string") return { gravity: FACE_GRAVITIES.includes(asked) && fit !== "cover" ? DEFAULT_GRAVITY : asked };
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
export function resolveBackground(spec: { background?: string; format?: AskedFormat; placeholder?: PlaceholderKind; width?: unknown; height?: number; fit?: Fit }): string | undefined {
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
