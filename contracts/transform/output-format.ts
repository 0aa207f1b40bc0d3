// The output format a derivative is encoded in. The edge and the origin both resolve it from the
// same choice, so a file served by either tier for one cache key has one format.
import { SOURCE_FAMILY } from "../image-source-family.ts";
import type { FormatClass } from "./negotiate.ts";
import type { FACTS_FORMAT, FormatChoice, OutputFormat, VideoFormat } from "./token-values.ts";

// What the URL asked for once Accept is folded in: a fixed format, the legacy class of f_auto
// (JPEG, or PNG when the source has alpha) or the source's own format.
export type OutputChoice = OutputFormat | "legacy" | "source";
export const outputChoices = ["jpeg", "webp", "avif", "png", "legacy", "source"] as const satisfies readonly OutputChoice[];

export function outputChoice(format: FormatChoice | undefined, formatClass: FormatClass | undefined): OutputChoice {
  if (format === undefined) return "source";
  if (format !== "auto") return format;
  return formatClass ?? "legacy";
}

// What `format: "source"` answers, the same table optimize follows; the edge's header reader names
// only formats it knows, hence the string key.
const SOURCE_FAMILIES: Partial<Record<string, OutputFormat | null>> = SOURCE_FAMILY;

export function resolveOutputFormat(choice: OutputChoice, sourceFormat: string, hasAlpha: boolean): OutputFormat {
  const family = choice === "source" ? SOURCE_FAMILIES[sourceFormat] : undefined;
  if (family) return family;
  if (choice === "source" || choice === "legacy") return hasAlpha ? "png" : "jpeg";
  return choice;
}

/** The one output format that holds an animation (libvips writes no AVIF sequence). */
export const ANIMATED_FORMAT = "webp" satisfies OutputFormat;

/** What was asked of the output format: a named one, `auto` (f_auto, or /v1/image/optimize's `format: "auto"`) or the source's own. */
export type AskedFormat = OutputFormat | "auto" | "source";

/**
 * Whether an animated source keeps its frames (as WebP) for what was asked, for every operation
 * that outputs an image. `auto` never drops an animation, whatever Accept says (every browser that
 * plays animated GIF plays animated WebP); the source's own format keeps it too; a named still
 * format (jpeg, png, avif) takes the first frame.
 */
export function keepsAnimation(asked: AskedFormat): boolean {
  return asked === "auto" || asked === "source" || asked === ANIMATED_FORMAT;
}

/** A transform's output choice as asked: f_auto, of whichever class (legacy only comes from it), asked for `auto`. */
export function askedFormat(choice: OutputChoice, formatAuto: boolean): AskedFormat {
  return formatAuto || choice === "legacy" ? "auto" : choice;
}

export const contentTypes: Record<OutputFormat, string> = {
  jpeg: "image/jpeg",
  webp: "image/webp",
  avif: "image/avif",
  png: "image/png",
};

export const videoContentTypes: Record<VideoFormat, string> = {
  mp4: "video/mp4",
  webm: "video/webm",
};

/** What a derivative's bytes are: an image, a video (f_mp4, f_webm), or f_json's facts. */
export type DerivativeFormat = OutputFormat | VideoFormat | typeof FACTS_FORMAT;

export const derivativeContentTypes: Record<DerivativeFormat, string> = { ...contentTypes, ...videoContentTypes, json: "application/json" };
