// The client-hint tokens: `w_auto` and `dpr_auto` as the URL spells them, the ladders their
// hinted values snap up to, and the network speeds q_auto saves bytes on. A browser's hinted width can be any pixel count; snapping it to a
// rung keeps one derivative (one cache entry, one charge) per rung, never one per pixel width.
// The edge reads the hints into a rung (client-hints.ts); the ladders are declared here, once.
import { decimalIn, integerIn, isIntegerSpelling, TokenError } from "./token-grammar.ts";
import { dprRange, sizeRange } from "./token-values.ts";

/** The widths `w_auto` serves, in device pixels: a hinted width is served at the first rung at or above it. */
export const WIDTH_LADDER = [160, 320, 480, 640, 768, 1024, 1280, 1600, 1920, 2560, 3200, 3840] as const;

/** The device pixel ratios `dpr_auto` serves: a hinted ratio is served at the first rung at or above it. */
export const DPR_LADDER = [1, 1.5, 2, 3, 4] as const satisfies readonly number[];

/**
 * The `ECT` (effective connection type) values q_auto lowers its level on, as it does on
 * `Save-Data: on`. 3g is in: its effective downlink is at most 700 kbit/s, so a 200 kB image takes
 * more than two seconds. 4g is the value nearly every other connection reports.
 */
export const SLOW_ECT_VALUES = ["slow-2g", "2g", "3g"] as const;

/**
 * `w_auto[:<fallback>][:<min>-<max>]`: the width from the browser's hints, snapped up to the
 * ladder and kept within min and max (a signed URL's bound); the fallback (or no width) without hints.
 */
export interface AutoWidth {
  auto: true;
  fallback?: number;
  min?: number;
  max?: number;
}

export const AUTO_WIDTH_SPELLING = `auto[:<fallback>][:<min>-<max>] (each a whole number from ${sizeRange.min} to ${sizeRange.max}, min at most max)`;

function autoWidthIn(value: string): AutoWidth {
  const [auto, ...parts] = value.split(":");
  if (auto !== "auto" || parts.length > 2) throw new TokenError(`must be ${AUTO_WIDTH_SPELLING}`);
  const width: AutoWidth = { auto: true };
  try {
    if (parts.length === 2 || (parts.length === 1 && !parts[0]!.includes("-"))) width.fallback = integerIn(parts.shift()!, sizeRange);
    if (parts.length === 1) {
      const bounds = parts[0]!.split("-");
      if (bounds.length !== 2) throw new TokenError("");
      const [min, max] = bounds.map((bound) => integerIn(bound, sizeRange)) as [number, number];
      if (min > max) throw new TokenError("");
      Object.assign(width, { min, max });
    }
  } catch (error) {
    if (error instanceof TokenError) throw new TokenError(`must be ${AUTO_WIDTH_SPELLING}`);
    throw error;
  }
  return width;
}

/** `w_`'s grammar: a width in pixels, or `auto` with its fallback and bounds. */
export function widthIn(value: string): number | AutoWidth {
  if (isIntegerSpelling(value)) return integerIn(value, sizeRange);
  if (value === "auto" || value.startsWith("auto:")) return autoWidthIn(value);
  throw new TokenError(`must be a whole number from ${sizeRange.min} to ${sizeRange.max}, or ${AUTO_WIDTH_SPELLING}`);
}

export function writeWidth(width: number | AutoWidth): string {
  if (typeof width === "number") return String(width);
  const fallback = width.fallback === undefined ? "" : `:${width.fallback}`;
  const bounds = width.min === undefined || width.max === undefined ? "" : `:${width.min}-${width.max}`;
  return `auto${fallback}${bounds}`;
}

/** `dpr_`'s grammar: a ratio, or `auto` for the browser's `Sec-CH-DPR`. */
export function dprIn(value: string): number | "auto" {
  if (value === "auto") return "auto";
  try {
    return decimalIn(value, dprRange);
  } catch (error) {
    if (error instanceof TokenError) throw new TokenError(`${error.message}, or auto`);
    throw error;
  }
}

/** The width a spec's `w_` gives before any hint is read: `w_auto`'s fallback. */
export function fixedWidth(width: number | AutoWidth | undefined): number | undefined {
  return typeof width === "object" ? width.fallback : width;
}

/** The device pixels a hinted width is served at: the first rung at or above it, within the URL's bounds. */
export function widthRung(hinted: number, width: AutoWidth): number {
  const rung: number = WIDTH_LADDER.find((candidate) => candidate >= hinted) ?? WIDTH_LADDER[WIDTH_LADDER.length - 1]!;
  return Math.min(width.max ?? rung, Math.max(width.min ?? rung, rung));
}

/** The ratio a hinted device pixel ratio is served at: the first rung at or above it. */
export function dprRung(hinted: number): number {
  return DPR_LADDER.find((candidate) => candidate >= hinted) ?? dprRange.max;
}
