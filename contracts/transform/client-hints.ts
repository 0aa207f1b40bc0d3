// w_auto and dpr_auto read the browser's client hints into a rung of their ladder
// (hint-tokens.ts), written into the transform like q_auto's level under Save-Data: the cache key,
// the stored derivative and the charge are then the rung's own (`w_auto` served at 640 is `w_640`),
// so a derivative's count is bounded by the ladder, whatever widths browsers send. A hint that is
// missing or not a number is ignored: the URL's fallback is served.
import { dprRung, widthRung, type AutoWidth } from "./hint-tokens.ts";
import { scaledSize } from "./spec-folding.ts";
import type { TransformSpec } from "./registry.ts";

/** The size hints w_auto reads: Sec-CH-Width is in device pixels, Sec-CH-Viewport-Width in CSS pixels (times Sec-CH-DPR). */
export const WIDTH_HINTS = ["Sec-CH-Width", "Sec-CH-Viewport-Width", "Sec-CH-DPR"] as const;
export type SizeHint = (typeof WIDTH_HINTS)[number];

/** The request headers a transform's hints are read from. */
export interface HintHeaders {
  get(name: string): string | null;
}

// Structured-field integers and decimals (RFC 8941) as browsers send them; anything else, zero
// included, is no hint.
const WHOLE_PIXELS = /^\d{1,5}$/;
const RATIO = /^\d{1,2}(\.\d{1,16})?$/;

function hintedNumber(value: string | null, spelling: RegExp): number | undefined {
  const trimmed = value?.trim() ?? "";
  const number = spelling.test(trimmed) ? Number(trimmed) : 0;
  return number > 0 ? number : undefined;
}

/** The layout width in device pixels the hints give, if any. */
function hintedWidth(headers: HintHeaders): number | undefined {
  const width = hintedNumber(headers.get("Sec-CH-Width"), WHOLE_PIXELS);
  if (width !== undefined) return width;
  const viewport = hintedNumber(headers.get("Sec-CH-Viewport-Width"), WHOLE_PIXELS);
  return viewport === undefined ? undefined : Math.ceil(viewport * (hintedNumber(headers.get("Sec-CH-DPR"), RATIO) ?? 1));
}

export interface NegotiatedHints {
  /** The transform with w_auto's width and dpr_auto's ratio read from the hints: fixed numbers. */
  spec: TransformSpec;
  /** The hints the URL's tokens read (its responses vary on them, and ask for them). */
  hints: SizeHint[];
}

/**
 * Fixes w_auto's width (its rung, else its fallback) and dpr_auto's ratio (its rung, else 1). The
 * width w_auto picks is in device pixels, so a dpr beside it scales only the height.
 */
export function negotiateClientHints(spec: TransformSpec, headers: HintHeaders): NegotiatedHints {
  const autoWidth: AutoWidth | undefined = typeof spec.width === "object" ? spec.width : undefined;
  const autoDpr = spec.dpr === "auto";
  if (autoWidth === undefined && !autoDpr) return { spec, hints: [] };
  const dpr = autoDpr ? dprRung(hintedNumber(headers.get("Sec-CH-DPR"), RATIO) ?? 1) : spec.dpr;
  const hints = WIDTH_HINTS.filter((hint) => autoWidth !== undefined || (autoDpr && hint === "Sec-CH-DPR"));
  if (autoWidth === undefined) return { spec: { ...spec, dpr }, hints };
  const hinted = hintedWidth(headers);
  const width = hinted === undefined ? autoWidth.fallback : widthRung(hinted, autoWidth);
  return { spec: { ...spec, width, height: scaledSize({ height: spec.height, dpr }).height, dpr: undefined }, hints };
}
