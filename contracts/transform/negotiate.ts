// f_auto picks the output format from Accept. The cache varies on the negotiated class,
// never on the raw header: browsers send dozens of Accept spellings but only three classes
// produce different bytes. q_auto's level is negotiated from Save-Data the same way: the
// lowered level is written into the transform, so the cache key, the stored derivative and the
// charge are those of the lowered level's own URL.
import { lowerQualityLevel } from "../perceptual-quality.ts";
import { resolveFormat, resolveQuality } from "./spec-folding.ts";
import type { TransformSpec } from "./registry.ts";
import type { OutputFormat } from "./token-values.ts";

// "legacy" is JPEG, or PNG when the source has alpha; alpha is a property of the file, so
// one class still maps to exactly one output per file.
export type FormatClass = "avif" | "webp" | "legacy";

export interface NegotiatedFormat {
  // undefined: no f_ token, keep the source's format.
  format: OutputFormat | undefined;
  // For f_auto: the class to put in the cache key (and send `Vary: Accept`); else undefined.
  formatClass: FormatClass | undefined;
}

// Only an explicit media range counts: `*/*` and `image/*` are sent by browsers that
// decode neither AVIF nor WebP.
function acceptsExplicitly(accept: string, mediaType: string): boolean {
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    if (type !== mediaType) continue;
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return weight > 0;
  }
  return false;
}

export function formatClassFromAccept(accept: string | null | undefined): FormatClass {
  if (!accept) return "legacy";
  if (acceptsExplicitly(accept, "image/avif")) return "avif";
  if (acceptsExplicitly(accept, "image/webp")) return "webp";
  return "legacy";
}

/**
 * f_auto's class as the canonical transform has it, undefined when Accept cannot change the
 * bytes. An f_auto beside a placeholder folds away like any f_: a signed ph_lqip URL with f_auto
 * appended still verifies, and must stay the one derivative the signer paid for.
 */
export function negotiateFormatClass(spec: Pick<TransformSpec, "format" | "placeholder">, accept: string | null | undefined): FormatClass | undefined {
  return resolveFormat(spec) === "auto" ? formatClassFromAccept(accept) : undefined;
}

export function negotiateFormat(
  spec: Pick<TransformSpec, "format" | "placeholder">,
  accept: string | null | undefined,
  hasAlpha: boolean,
): NegotiatedFormat {
  const asked = resolveFormat(spec);
  if (asked !== "auto") return { format: asked, formatClass: undefined };
  const formatClass = formatClassFromAccept(accept);
  const format = formatClass === "legacy" ? (hasAlpha ? "png" : "jpeg") : formatClass;
  return { format, formatClass };
}

export interface NegotiatedQuality {
  /** The transform to make: the one asked for, with q_auto's level lowered under Save-Data. */
  spec: TransformSpec;
  /** Whether Save-Data changes this transform's bytes (send `Vary: Save-Data`). */
  variesOnSaveData: boolean;
}

// Save-Data's value is a list of tokens separated by ";", of which only `on` is defined.
function savesData(header: string | null | undefined): boolean {
  return (header ?? "").split(";").some((token) => token.trim().toLowerCase() === "on");
}

/**
 * `Save-Data: on` lowers q_auto one level. A fixed quality, a placeholder and q_auto:low (already
 * the lowest) give the same bytes whatever the header says, so they do not vary on it.
 */
export function negotiateQuality(spec: TransformSpec, saveData: string | null | undefined): NegotiatedQuality {
  const quality = resolveQuality(spec);
  if (typeof quality === "number") return { spec, variesOnSaveData: false };
  const lowered = lowerQualityLevel(quality.auto);
  if (lowered === quality.auto) return { spec, variesOnSaveData: false };
  return { spec: savesData(saveData) ? { ...spec, quality: `auto:${lowered}` } : spec, variesOnSaveData: true };
}
