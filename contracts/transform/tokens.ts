// The URL-transform token grammar: `{transform}` in GET /v1/image/t/{key_id}/{transform}/{file_id}
// is a comma-separated list of `prefix_value` tokens. The value sets are exported so the
// OpenAPI description and the TS client are generated from the same lists the parser uses.
import { ProblemError, type FieldError } from "../problems/catalogue.ts";
import { AUTO_QUALITY_VALUES, autoQualityLevel, DEFAULT_QUALITY_LEVEL, QUALITY_LEVEL_TARGETS, QUALITY_LEVELS, type AutoQuality } from "../perceptual-quality.ts";

export const MAX_OUTPUT_SIDE = 8192;
export const MAX_OUTPUT_PIXELS = 40_000_000;
// A real transform is well under 100 characters; the cap keeps hostile segments cheap to refuse.
export const MAX_TRANSFORM_LENGTH = 512;

export const formatTokenValues = ["jpg", "jpeg", "webp", "avif", "png", "auto"] as const;
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
// Decimal values take at most this many fraction digits, so near-identical sigmas
// cannot mint unbounded distinct derivatives.
export const MAX_FRACTION_DIGITS = 2;
// HMAC-SHA256 truncated to 16 bytes (128 bits), base64url without padding.
export const SIGNATURE_LENGTH = 22;

export const OUTPUT_FORMATS = ["jpeg", "webp", "avif", "png"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type FormatChoice = OutputFormat | "auto";
export type Fit = (typeof fitValues)[number];
export type Gravity = (typeof gravityValues)[number];
export type Rotation = 90 | 180 | 270;
export type PlaceholderKind = (typeof placeholderValues)[number];

// What a transform segment asked for, exactly as written (aliases resolved, nothing folded).
// Absent fields mean "not given"; canonicalTransform applies the defaults.
export interface TransformSpec {
  /** Width in pixels (at 1x). */
  width?: number;
  /** Height in pixels (at 1x). */
  height?: number;
  /** 1 to 100, or `auto` / `auto:<level>`: the lowest quality whose output reaches the level's perceptual score. */
  quality?: number | AutoQuality;
  /** `auto` negotiates AVIF, WebP, then JPEG or PNG from the browser's Accept header. */
  format?: FormatChoice;
  fit?: Fit;
  gravity?: Gravity;
  blur?: number;
  sharpen?: number;
  /** Undefined or `auto`: the EXIF orientation only. */
  rotate?: Rotation | "auto";
  dpr?: number;
  /** `false`: the first frame of an animated GIF or WebP (by default every frame is kept, as animated WebP). */
  animated?: false;
  /** `lqip`: the image's blurred ≤16 px WebP preview instead of the image (quality and format do not apply). */
  placeholder?: PlaceholderKind;
  /** The `s_` token; not part of the canonical transform it signs. */
  signature?: string;
}

// What a transform does without the token; canonicalTransform drops tokens equal to these.
export const DEFAULT_QUALITY = 76;
export const DEFAULT_FIT: Fit = "inside";
export const DEFAULT_GRAVITY: Gravity = "center";

export const tokenDescriptions = {
  w: `width in pixels, ${sizeRange.min} to ${sizeRange.max}`,
  h: `height in pixels, ${sizeRange.min} to ${sizeRange.max}`,
  q: `quality, ${qualityRange.min} to ${qualityRange.max} (default ${DEFAULT_QUALITY}), or ${AUTO_QUALITY_VALUES.join(", ")} (auto = auto:${DEFAULT_QUALITY_LEVEL}): the lowest quality whose output still scores at least the level's SSIMULACRA 2 target (${QUALITY_LEVELS.map((level) => `${level} ${QUALITY_LEVEL_TARGETS[level]}`).join(", ")}; 100 is identical, about 90 visually lossless), found at the origin; \`Save-Data: on\` lowers eco, good and best one level (the same derivative as that level's own URL), and their responses vary on Save-Data`,
  f: `format: ${formatTokenValues.join(", ")} (jpg = jpeg; auto negotiates AVIF, WebP, then JPEG or PNG from Accept; default: the source's format)`,
  fit: `fit when both w and h are given: ${fitValues.join(", ")} (default ${DEFAULT_FIT})`,
  g: `gravity for cover and contain: ${gravityValues.join(", ")} (default ${DEFAULT_GRAVITY}; auto = content-aware crop)`,
  bl: `Gaussian blur sigma, ${blurRange.min} to ${blurRange.max}, at most ${MAX_FRACTION_DIGITS} decimals`,
  sh: `sharpen sigma, ${sharpenRange.min} to ${sharpenRange.max}, at most ${MAX_FRACTION_DIGITS} decimals`,
  r: `rotation: ${rotateValues.join(", ")} (default auto = EXIF orientation; angles turn clockwise after it)`,
  anim: `animation: ${animValues.join(", ")} takes the first frame of an animated GIF or WebP (default: every frame is kept, as animated WebP, unless f_ names a still format: jpeg, png or avif take the first frame; f_auto always keeps it)`,
  dpr: `device pixel ratio, ${dprRange.min} to ${dprRange.max}, at most ${MAX_FRACTION_DIGITS} decimals; multiplies w and h (the result is scaled down to fit ${MAX_OUTPUT_SIDE} px per side and ${MAX_OUTPUT_PIXELS / 1_000_000} MP)`,
  ph: `placeholder: ${placeholderValues.join(", ")} (lqip = a blurred WebP of at most 16 px a side, of the image as w, h, fit, g and r shape it; q and f do not apply)`,
  s: `signature: ${SIGNATURE_LENGTH} base64url characters, HMAC-SHA256 of the canonical path`,
} as const;

type Prefix = keyof typeof tokenDescriptions;

const INTEGER = /^\d{1,6}$/;
const DECIMAL = new RegExp(`^\\d{1,4}(\\.\\d{1,${MAX_FRACTION_DIGITS}})?$`);
const SIGNATURE = new RegExp(`^[A-Za-z0-9_-]{${SIGNATURE_LENGTH}}$`);

class TokenError extends Error {}

function integerIn(value: string, range: { min: number; max: number }): number {
  const n = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new TokenError(`must be a whole number from ${range.min} to ${range.max}`);
  }
  return n;
}

function decimalIn(value: string, range: { min: number; max: number }): number {
  const n = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new TokenError(
      `must be a number from ${range.min} to ${range.max} with at most ${MAX_FRACTION_DIGITS} decimals`,
    );
  }
  return n;
}

function qualityIn(value: string): number | AutoQuality {
  if (autoQualityLevel(value) !== null) return value as AutoQuality;
  if (INTEGER.test(value)) return integerIn(value, qualityRange);
  throw new TokenError(`must be a whole number from ${qualityRange.min} to ${qualityRange.max}, or one of ${AUTO_QUALITY_VALUES.join(", ")}`);
}

function oneOf<T extends string>(value: string, values: readonly T[]): T {
  if (!(values as readonly string[]).includes(value)) {
    throw new TokenError(`must be one of ${values.join(", ")}`);
  }
  return value as T;
}

function applyToken(spec: TransformSpec, prefix: Prefix, value: string): void {
  switch (prefix) {
    case "w":
      spec.width = integerIn(value, sizeRange);
      return;
    case "h":
      spec.height = integerIn(value, sizeRange);
      return;
    case "q":
      spec.quality = qualityIn(value);
      return;
    case "f": {
      const format = oneOf(value, formatTokenValues);
      spec.format = format === "jpg" ? "jpeg" : format;
      return;
    }
    case "fit":
      spec.fit = oneOf(value, fitValues);
      return;
    case "g":
      spec.gravity = oneOf(value, gravityValues);
      return;
    case "bl":
      spec.blur = decimalIn(value, blurRange);
      return;
    case "sh":
      spec.sharpen = decimalIn(value, sharpenRange);
      return;
    case "r": {
      const rotate = oneOf(value, rotateValues);
      spec.rotate = rotate === "auto" ? "auto" : (Number(rotate) as Rotation);
      return;
    }
    case "dpr":
      spec.dpr = decimalIn(value, dprRange);
      return;
    case "anim":
      oneOf(value, animValues);
      spec.animated = false;
      return;
    case "ph":
      spec.placeholder = oneOf(value, placeholderValues);
      return;
    case "s":
      if (!SIGNATURE.test(value)) {
        throw new TokenError(`must be ${SIGNATURE_LENGTH} base64url characters`);
      }
      spec.signature = value;
      return;
  }
}

function isPrefix(prefix: string): prefix is Prefix {
  return Object.hasOwn(tokenDescriptions, prefix);
}

// RFC 6901: a token may hold "~" or a percent-decoded "/".
function escapePointerSegment(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function invalid(errors: FieldError[]): ProblemError {
  const first = errors[0]?.detail ?? "invalid transform";
  const detail = errors.length === 1 ? first : `${errors.length} transform tokens are invalid; see errors`;
  return new ProblemError("transform_invalid", detail, { errors });
}

// Throws `transform_invalid` listing every bad token (pointer `/transform/<token>`), so a
// caller fixes them all in one round trip.
export function parseTransform(segment: string): TransformSpec {
  if (segment.length === 0) {
    throw invalid([{ pointer: "/transform", detail: "the transform is empty; give at least one token such as w_400" }]);
  }
  if (segment.length > MAX_TRANSFORM_LENGTH) {
    throw invalid([{ pointer: "/transform", detail: `the transform is longer than ${MAX_TRANSFORM_LENGTH} characters` }]);
  }
  const spec: TransformSpec = {};
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const token of segment.split(",")) {
    const pointer = `/transform/${escapePointerSegment(token)}`;
    if (token.length === 0) {
      errors.push({ pointer: "/transform", detail: "empty token (two commas in a row, or a leading or trailing comma)" });
      continue;
    }
    const cut = token.indexOf("_");
    const prefix = cut < 0 ? token : token.slice(0, cut);
    if (!isPrefix(prefix)) {
      errors.push({ pointer, detail: `unknown token "${token}"; known prefixes: ${Object.keys(tokenDescriptions).map((p) => `${p}_`).join(" ")}` });
      continue;
    }
    if (seen.has(prefix)) {
      errors.push({ pointer, detail: `${prefix}_ is given more than once` });
      continue;
    }
    seen.add(prefix);
    try {
      applyToken(spec, prefix, cut < 0 ? "" : token.slice(cut + 1));
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      errors.push({ pointer, detail: `${prefix}_ ${error.message}` });
    }
  }
  if (errors.length > 0) throw invalid(errors);
  if (spec.width !== undefined && spec.height !== undefined && spec.width * spec.height > MAX_OUTPUT_PIXELS) {
    throw invalid([
      {
        pointer: "/transform",
        detail: `w_${spec.width} x h_${spec.height} is more than ${MAX_OUTPUT_PIXELS / 1_000_000} MP of output`,
      },
    ]);
  }
  return spec;
}
