// f_auto picks the output format from Accept. The cache varies on the negotiated class,
// never on the raw header: browsers send dozens of Accept spellings but only three classes
// produce different bytes. q_auto's level is negotiated from Save-Data and ECT the same way, and
// w_auto's and dpr_auto's sizes from the client hints (client-hints.ts): what the headers chose
// is written into the transform, so the cache key, the stored derivative and the charge are
// those of the chosen level's or rung's own URL.
import { lowerQualityLevel } from "../perceptual-quality.ts";
import { negotiateClientHints, WIDTH_HINTS, type HintHeaders } from "./client-hints.ts";
import { SLOW_ECT_VALUES } from "./hint-tokens.ts";
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
  /** The transform to make: the one asked for, with q_auto's level lowered under Save-Data or a slow ECT. */
  spec: TransformSpec;
  /** Whether Save-Data and ECT change this transform's bytes (send `Vary: Save-Data, ECT`). */
  variesOnSavings: boolean;
}

/** The request headers q_auto's level is read from. */
export interface SavingHeaders {
  saveData: string | null | undefined;
  ect: string | null | undefined;
}

// Save-Data's value is a list of tokens separated by ";", of which only `on` is defined.
function savesData(header: string | null | undefined): boolean {
  return (header ?? "").split(";").some((token) => token.trim().toLowerCase() === "on");
}

// ECT is a structured-field token; a quoted spelling is read too.
function slowConnection(header: string | null | undefined): boolean {
  const ect = (header ?? "").trim().replace(/^"(.*)"$/, "$1").toLowerCase();
  return (SLOW_ECT_VALUES as readonly string[]).includes(ect);
}

/**
 * `Save-Data: on` or a slow `ECT` lowers q_auto one level (both together still one: each says the
 * same thing, that bytes cost more than usual). A fixed quality, a placeholder and q_auto:low
 * (already the lowest) give the same bytes whatever the headers say, so they do not vary on them.
 */
export function negotiateQuality(spec: TransformSpec, headers: SavingHeaders): NegotiatedQuality {
  const quality = resolveQuality(spec);
  if (typeof quality === "number") return { spec, variesOnSavings: false };
  const lowered = lowerQualityLevel(quality.auto);
  if (lowered === quality.auto) return { spec, variesOnSavings: false };
  const saving = savesData(headers.saveData) || slowConnection(headers.ect);
  return { spec: saving ? { ...spec, quality: `auto:${lowered}` } : spec, variesOnSavings: true };
}

/** Every request header a derivative's bytes may depend on, in the order `Vary` names them. */
export const NEGOTIATED_HEADERS = ["Accept", "Save-Data", "ECT", ...WIDTH_HINTS] as const;
export type NegotiatedHeader = (typeof NEGOTIATED_HEADERS)[number];

/** The hints a browser sends only to a server that asked (`Accept-CH`): Accept and Save-Data it always sends. */
export const OPT_IN_HINTS: readonly NegotiatedHeader[] = ["ECT", ...WIDTH_HINTS];
/** The hints whose absence gives another size, not just other bytes (`Critical-CH`). */
export const CRITICAL_HINTS: readonly NegotiatedHeader[] = WIDTH_HINTS;

export interface NegotiatedTransform {
  /** The transform to make: hinted sizes fixed to their rungs, q_auto's level lowered where the headers ask. */
  spec: TransformSpec;
  /** f_auto's class; null for any other transform. */
  formatClass: FormatClass | null;
  /** The request headers the transform's bytes depend on, in NEGOTIATED_HEADERS' order. */
  vary: NegotiatedHeader[];
}

/** What one request's headers make of a transform: the derivative it names, and what it varies on. */
export function negotiateTransform(asked: TransformSpec, headers: HintHeaders): NegotiatedTransform {
  const hinted = negotiateClientHints(asked, headers);
  const { spec, variesOnSavings } = negotiateQuality(hinted.spec, { saveData: headers.get("Save-Data"), ect: headers.get("ECT") });
  const formatClass = negotiateFormatClass(spec, headers.get("Accept")) ?? null;
  const used = new Set<NegotiatedHeader>(hinted.hints);
  if (formatClass !== null) used.add("Accept");
  if (variesOnSavings) (["Save-Data", "ECT"] as const).forEach((header) => used.add(header));
  return { spec, formatClass, vary: NEGOTIATED_HEADERS.filter((header) => used.has(header)) };
}
