// The transform token registry: every `prefix_value` token of GET /v1/image/t/{key_id}/{transform}/...
// declared once, as plain data. The parser (read-transform.ts), the resolved operation and its type
// (ResolvedTransform, resolveWith in canonical.ts), the canonical form, the edge/origin decision
// (edgeAppliesAll below), the origin's wire schema and options (contracts/origin/image-transform.ts),
// the origin's step list (origin/image/transform-steps.ts), the OpenAPI description (tokenTable, from
// the lines in token-docs.ts the type ties one to a declaration) and
// the typed client's options (clients/ts/images/) are all read from TRANSFORM_TOKENS: registry.test.ts
// and one-declaration.test.ts fail when a declared token is missing from one. docs/recipes.md says how to add one.
// No schema library is imported on this path: the browser URL builder loads it as is.
import { AUTO_QUALITY_VALUES, autoQualityLevel, QUALITY_LEVELS, type AutoQuality } from "../perceptual-quality.ts";
import { choice, decimal, either, flag, integer, onlyTrue, optional, pattern, record, withDefault, type Operand, type OperandMap, type OperandValues } from "./operand.ts";
import { asksFacts, asksVideo, colourAdjustment, resolveBackground, resolveFit, resolveFormat, resolveGravity, resolveOverlay, resolveQuality, resolveTextOverlay, scaledSize } from "./spec-folding.ts";
import { OVERLAY_MAX_BYTES } from "../limits/overlay.ts";
import {
  DEFAULT_TEXT_COLOUR,
  DEFAULT_TEXT_PADDING,
  isTextOverlaySpelling,
  OVERLAY_FONTS,
  OVERLAY_TEXT_PATTERN,
  TEXT_BOX_HEX,
  TEXT_BOX_LOWER_HEX,
  TEXT_COLOUR_HEX,
  TEXT_COLOUR_LOWER_HEX,
  textOverlayIn,
  textOverlayValue,
  textPaddingRange,
  textSizeRange,
  TEXT_SPELLING,
  type TransformTextOverlay,
} from "./text-overlay.ts";
import { decimalIn, integerIn, integersIn, isIntegerSpelling, matching, oneOf, signedIntegerIn, TokenError } from "./token-grammar.ts";
import {
  animValues,
  BACKGROUND_HEX,
  blurRange,
  colourAdjustRange,
  cropOffsetRange,
  cropSizeRange,
  cropValue,
  DEFAULT_FIT,
  focalRange,
  focalValue,
  DEFAULT_GAMMA,
  DEFAULT_GRAVITY,
  gammaRange,
  DEFAULT_QUALITY,
  FACTS_FORMAT,
  fitValues,
  flipValues,
  formatTokenValues,
  gravityValues,
  MAX_FRACTION_DIGITS,
  OVERLAY_FILE_ID,
  overlayGravityValues,
  overlayOpacityRange,
  overlayWidthRange,
  DEFAULT_OVERLAY_GRAVITY,
  DEFAULT_OVERLAY_OPACITY,
  pageRange,
  PRESET_NAME_PATTERN,
  PRESET_NAME_RULE,
  placeholderValues,
  qualityRange,
  qualityValue,
  rotateValues,
  sharpenRange,
  SIGNATURE_LENGTH,
  sizeRange,
  trimRange,
  BACKGROUND_LOWER_HEX,
  OUTPUT_FORMATS,
  FACE_GRAVITIES,
  faceBlurRange,
  faceEffectValues,
  pixelateRange,
  zoomRange,
  type FaceEffect,
  VIDEO_FORMATS,
  type VideoFormat,
  type CropRect,
  type Fit,
  type Flip,
  type FocalPoint,
  type Gravity,
  type FormatChoice,
  type PlaceholderKind,
  type Rotation,
  type TransformOverlay,
  type TransformQuality,
} from "./token-values.ts";
import { canonicalFormat } from "../output-format-aliases.ts";
import { dprIn, widthIn, writeWidth } from "./hint-tokens.ts";
import { faceEffectIn, faceEffectValue, resolveZoom, zoomIn } from "./face-tokens.ts";

/**
 * The origin's token-driven steps, in the order it runs them (between auto-orient and colour
 * conversion before, and flattening after). A token names the step that applies it; the origin
 * maps each name to its step function, so a step named here without one fails to typecheck.
 */
// The faces are found (and blurred or pixelated) on the picture as the geometry tokens cut and turn
// it, before any colour changes it.
// The colour adjustments come before the fit, whose padding (bg_) they must not change, and the
// overlay is last, so a watermark is drawn as it is.
export const TRANSFORM_STEPS = ["crop", "trim", "rotate", "flip", "faces", "brightness", "contrast", "saturation", "gamma", "fit", "blur", "sharpen", "overlay"] as const;
export type TransformStepName = (typeof TRANSFORM_STEPS)[number];

/** What only the call to the origin knows, beside the operation: the overlay's bytes travel ahead of the source. */
export interface OriginCall {
  overlayBytes?: number;
}

/** How a token's fields travel to the origin, where not as they are. */
export interface WireForm<Operands extends OperandMap, Wire extends OperandMap> {
  operands: Wire;
  send: (values: OperandValues<Operands>, call: OriginCall) => OperandValues<Wire>;
}

/**
 * The fields of the resolved operation a token decides, with their shapes, and their values from
 * the whole spec (dpr_ scales w_, f_json folds the colour tokens away). The operation's type, the
 * resolver and the origin's wire schema and options are all read from these. `resolve` declares its
 * return type (as `canonical` and `edge` do): the operation's type is read from the registry itself,
 * so the compiler cannot infer it from their bodies (TS7022 on TRANSFORM_TOKENS says one is missing).
 */
export interface TokenFields<Operands extends OperandMap, Wire extends OperandMap> {
  operands: Operands;
  resolve: (spec: TransformSpec) => OperandValues<Operands>;
  wire?: WireForm<Operands, Wire>;
}

export interface TokenDeclaration<Option extends string, Value, Operands extends OperandMap = Record<never, never>, Wire extends OperandMap = Operands> {
  prefix: string;
  /** The option's name: the parsed spec's field and the typed client's option. */
  option: Option;
  /** The value grammar: the value as written (after `prefix_`), or a TokenError naming what it must be. */
  parse(value: string): Value;
  /** How a value is written back into the token, where `String(value)` would not do (a crop rectangle): the typed client writes options with it. */
  write?: (value: Value) => string;
  /** Null for a token folded into another's fields (lg_ into l_'s overlay) or into none (dpr_, the signature). */
  fields: TokenFields<Operands, Wire> | null;
  /**
   * The token's value in the canonical transform, read from the resolved operation; undefined when
   * it changes nothing (its default, or folded away by another token). Null for a token that never
   * appears there (dpr is folded into the size, the signature signs the rest).
   */
  canonical: ((op: ResolvedTransform) => string | undefined) | null;
  /**
   * Whether the edge's jSquash pipeline applies the token when it is in the canonical transform:
   * an allow-list, so a token the edge does not name goes to the origin rather than being skipped.
   */
  edge: boolean | ((op: ResolvedTransform) => boolean);
  /** The origin step that applies it: `open` for what the original is read as, `encode` for what the encoder decides, null for none. */
  originStep: TransformStepName | "open" | "encode" | null;
  /** A transform using the token with a value other than its default: the registry's tests run every derived table over it. */
  example: string;
}

export function token<Option extends string, Value, Operands extends OperandMap = Record<never, never>, Wire extends OperandMap = Operands>(
  declaration: TokenDeclaration<Option, Value, Operands, Wire>,
): TokenDeclaration<Option, Value, Operands, Wire> {
  return declaration;
}

// What an image overlay (l_file_...) and a text overlay (l_text:) share: where, how wide and how opaque.
// At opacity 0 it draws nothing and is folded away, so an overlay's opacity is at least 1.
const overlayPlacement = { gravity: choice(overlayGravityValues), width: optional(integer(overlayWidthRange)), opacity: integer({ min: 1, max: overlayOpacityRange.max }) } as const;

const textOverlayOperand = optional(
  record({
    text: pattern(OVERLAY_TEXT_PATTERN),
    font: choice(OVERLAY_FONTS),
    size: integer(textSizeRange),
    colour: pattern(TEXT_COLOUR_LOWER_HEX),
    box: optional(pattern(TEXT_BOX_LOWER_HEX)),
    padding: integer(textPaddingRange),
    ...overlayPlacement,
  }),
);

/** The overlay either kind places, for the placement tokens' canonical values. */
const placedOverlay = (op: ResolvedTransform) => op.overlay ?? op.textOverlay;

const SIGNATURE = new RegExp(`^[A-Za-z0-9_-]{${SIGNATURE_LENGTH}}$`);

function qualityIn(value: string): number | AutoQuality {
  if (autoQualityLevel(value) !== null) return value as AutoQuality;
  if (isIntegerSpelling(value)) return integerIn(value, qualityRange);
  throw new TokenError(`must be a whole number from ${qualityRange.min} to ${qualityRange.max}, or one of ${AUTO_QUALITY_VALUES.join(", ")}`);
}

const spelled = (value: number | string | undefined) => (value === undefined ? undefined : String(value));

export const CROP_SPELLING = `x, y, width and height in whole pixels joined by "x" (x and y from ${cropOffsetRange.min}, width and height from ${cropSizeRange.min}, each at most ${cropSizeRange.max})`;

export const FOCAL_SPELLING = `a focal point <x>x<y>, two numbers from ${focalRange.min} to ${focalRange.max} with at most ${MAX_FRACTION_DIGITS} decimals`;

function gravityIn(value: string): Gravity | FocalPoint {
  if ((gravityValues as readonly string[]).includes(value)) return value as Gravity;
  const parts = value.split("x");
  try {
    if (parts.length !== 2) throw new TokenError("");
    return { x: decimalIn(parts[0]!, focalRange), y: decimalIn(parts[1]!, focalRange) };
  } catch (error) {
    if (error instanceof TokenError) throw new TokenError(`must be one of ${gravityValues.join(", ")}, or ${FOCAL_SPELLING}`);
    throw error;
  }
}

function cropIn(value: string): CropRect {
  const [x, y, width, height] = integersIn(value, [cropOffsetRange, cropOffsetRange, cropSizeRange, cropSizeRange], CROP_SPELLING);
  return { x: x!, y: y!, width: width!, height: height! };
}

// Canonical order is this list's order; it must stay as it is, or every cached URL changes.
export const TRANSFORM_TOKENS = [
  token({
    prefix: "t",
    option: "preset",
    parse: (value) => matching(value, PRESET_NAME_PATTERN, PRESET_NAME_RULE),
    // Never in a derivative's canonical transform: the edge expands the name into the preset's own
    // tokens first (contracts/transform/preset.ts), so a preset and its expansion are one derivative.
    // The URL and its signature keep the name (urlTransform in canonical.ts).
    fields: null,
    canonical: null,
    edge: true,
    originStep: null,
    example: "t_thumb",
  }),
  token({
    prefix: "w",
    option: "width",
    parse: widthIn,
    write: writeWidth,
    // w_auto's width is read from the request's hints into a rung before the derivative is named
    // (negotiateTransform); a spec not negotiated resolves to its fallback.
    fields: { operands: { width: optional(integer(sizeRange)) }, resolve: (spec): { width?: number } => ({ width: scaledSize(spec).width }) },
    canonical: (op): string | undefined => spelled(op.width),
    edge: true,
    originStep: "fit",
    example: "w_400",
  }),
  token({
    prefix: "h",
    option: "height",
    parse: (value) => integerIn(value, sizeRange),
    fields: { operands: { height: optional(integer(sizeRange)) }, resolve: (spec): { height?: number } => ({ height: scaledSize(spec).height }) },
    canonical: (op): string | undefined => spelled(op.height),
    edge: true,
    originStep: "fit",
    example: "h_300",
  }),
  token({
    prefix: "fit",
    option: "fit",
    parse: (value) => oneOf(value, fitValues),
    fields: { operands: { fit: withDefault(choice(fitValues), DEFAULT_FIT) }, resolve: (spec): { fit: Fit } => ({ fit: resolveFit(spec) }) },
    canonical: (op): string | undefined => (op.fit === DEFAULT_FIT ? undefined : op.fit),
    // Padding is sharp's.
    edge: (op): boolean => op.fit !== "contain",
    originStep: "fit",
    example: "w_400,h_300,fit_cover",
  }),
  token({
    prefix: "g",
    option: "gravity",
    parse: gravityIn,
    write: (value) => (typeof value === "string" ? value : focalValue(value)),
    fields: {
      operands: { gravity: withDefault(choice(gravityValues), DEFAULT_GRAVITY), focus: optional(record({ x: decimal(focalRange), y: decimal(focalRange) })) },
      resolve: (spec): { gravity: Gravity; focus?: FocalPoint } => resolveGravity(spec.gravity, resolveFit(spec)),
    },
    canonical: (op): string | undefined => (op.focus !== undefined ? focalValue(op.focus) : op.gravity === DEFAULT_GRAVITY ? undefined : op.gravity),
    // A content-aware crop is sharp's attention strategy, a face's needs the detector; a focal point's crop is the origin's.
    edge: (op): boolean => !FACE_GRAVITIES.includes(op.gravity) && op.focus === undefined,
    originStep: "fit",
    example: "w_400,h_300,fit_cover,g_north",
  }),
  token({
    prefix: "z",
    option: "zoom",
    parse: zoomIn,
    fields: {
      operands: { zoom: optional(decimal(zoomRange)) },
      resolve: (spec): { zoom?: number } => ({ zoom: resolveZoom(spec.zoom, resolveFit(spec), resolveGravity(spec.gravity, resolveFit(spec))) }),
    },
    canonical: (op): string | undefined => spelled(op.zoom),
    // Only a face gravity keeps it, and faces are found at the origin.
    edge: false,
    originStep: "fit",
    example: "w_400,h_400,fit_cover,g_face,z_2",
  }),
  token({
    prefix: "q",
    option: "quality",
    parse: qualityIn,
    fields: {
      // A number, or q_auto's level (the origin searches the quality that reaches its score).
      operands: { quality: either(integer(qualityRange), record({ auto: choice(QUALITY_LEVELS) })) },
      resolve: (spec): { quality: TransformQuality } => ({ quality: resolveQuality(spec) }),
    },
    canonical: (op): string | undefined => (op.quality === DEFAULT_QUALITY ? undefined : String(qualityValue(op.quality))),
    // q_auto's search needs the perceptual metric and several encodes: the origin's CPU.
    edge: (op): boolean => typeof op.quality === "number",
    originStep: "encode",
    example: "q_60",
  }),
  token({
    prefix: "f",
    option: "format",
    parse: (value): FormatChoice | VideoFormat | typeof FACTS_FORMAT => {
      const format = oneOf(value, [...formatTokenValues, FACTS_FORMAT]);
      return canonicalFormat(format);
    },
    fields: {
      operands: { format: optional(choice([...OUTPUT_FORMATS, "auto"])), facts: optional(onlyTrue), video: optional(choice(VIDEO_FORMATS)) },
      resolve: (spec): { format?: FormatChoice; facts?: true; video?: VideoFormat } => ({
        format: resolveFormat(spec),
        ...(asksFacts(spec) ? { facts: true as const } : {}),
        video: asksVideo(spec),
      }),
      // The origin is sent the format the edge negotiated (the call's output), and whether f_auto
      // chose it: auto never drops an animation, a named still format takes the first frame.
      wire: {
        operands: { format_auto: withDefault(flag, false), facts: optional(onlyTrue), video: optional(choice(VIDEO_FORMATS)) },
        send: ({ format, facts, video }) => ({ format_auto: format === "auto", facts, video }),
      },
    },
    canonical: (op): string | undefined => (op.facts ? FACTS_FORMAT : (op.video ?? op.format)),
    // The facts need the source decoded by sharp (its metadata and the shaped image's size); a video needs ffmpeg.
    edge: (op): boolean => op.facts !== true && op.video === undefined,
    originStep: "encode",
    example: "f_webp",
  }),
  token({
    prefix: "r",
    option: "rotate",
    parse: (value): Rotation | "auto" => {
      const rotate = oneOf(value, rotateValues);
      return rotate === "auto" ? "auto" : (Number(rotate) as Rotation);
    },
    fields: {
      operands: { rotate: withDefault(choice([0, 90, 180, 270]), 0) },
      resolve: (spec): { rotate: 0 | Rotation } => ({ rotate: spec.rotate === undefined || spec.rotate === "auto" ? 0 : spec.rotate }),
    },
    canonical: (op): string | undefined => (op.rotate === 0 ? undefined : String(op.rotate)),
    edge: false,
    originStep: "rotate",
    example: "r_90",
  }),
  token({
    prefix: "fl",
    option: "flip",
    parse: (value) => oneOf(value, flipValues),
    fields: { operands: { flip: optional(choice(flipValues)) }, resolve: (spec): { flip?: Flip } => ({ flip: spec.flip }) },
    canonical: (op): string | undefined => op.flip,
    edge: false,
    originStep: "flip",
    example: "fl_h",
  }),
  token({
    prefix: "crop",
    option: "crop",
    parse: cropIn,
    write: cropValue,
    fields: {
      operands: { crop: optional(record({ x: integer(cropOffsetRange), y: integer(cropOffsetRange), width: integer(cropSizeRange), height: integer(cropSizeRange) })) },
      resolve: (spec): { crop?: CropRect } => ({ crop: spec.crop }),
    },
    canonical: (op): string | undefined => (op.crop === undefined ? undefined : cropValue(op.crop)),
    // Whether the rectangle lies within the image is known once the image is read: at the origin.
    edge: false,
    originStep: "crop",
    example: "crop_10x20x300x200",
  }),
  token({
    prefix: "trim",
    option: "trim",
    parse: (value) => integerIn(value, trimRange),
    fields: { operands: { trim: optional(integer(trimRange)) }, resolve: (spec): { trim?: number } => ({ trim: spec.trim }) },
    canonical: (op): string | undefined => spelled(op.trim),
    // libvips finds the border; the edge has no such search.
    edge: false,
    originStep: "trim",
    example: "trim_10",
  }),
  token({
    prefix: "bl",
    option: "blur",
    parse: (value) => decimalIn(value, blurRange),
    fields: { operands: { blur: optional(decimal(blurRange)) }, resolve: (spec): { blur?: number } => ({ blur: spec.blur }) },
    canonical: (op): string | undefined => spelled(op.blur),
    edge: false,
    originStep: "blur",
    example: "bl_2.5",
  }),
  token({
    prefix: "sh",
    option: "sharpen",
    parse: (value) => decimalIn(value, sharpenRange),
    fields: { operands: { sharpen: optional(decimal(sharpenRange)) }, resolve: (spec): { sharpen?: number } => ({ sharpen: spec.sharpen }) },
    canonical: (op): string | undefined => spelled(op.sharpen),
    edge: false,
    originStep: "sharpen",
    example: "sh_1",
  }),
  token({
    prefix: "e",
    option: "effect",
    parse: faceEffectIn,
    write: faceEffectValue,
    fields: {
      operands: { effect: optional(record({ kind: choice(faceEffectValues), amount: optional(integer({ min: faceBlurRange.min, max: pixelateRange.max })) })) },
      // The facts measure the source, which an effect does not touch.
      resolve: (spec): { effect?: FaceEffect } => ({ effect: asksFacts(spec) ? undefined : spec.effect }),
    },
    canonical: (op): string | undefined => (op.effect === undefined ? undefined : faceEffectValue(op.effect)),
    // Faces are found at the origin.
    edge: false,
    originStep: "faces",
    example: "e_blur_faces:30",
  }),
  token({
    prefix: "bg",
    option: "background",
    parse: (value) => matching(value, BACKGROUND_HEX, "six hex digits RRGGBB").toLowerCase(),
    fields: { operands: { background: optional(pattern(BACKGROUND_LOWER_HEX)) }, resolve: (spec): { background?: string } => ({ background: resolveBackground(spec) }) },
    canonical: (op): string | undefined => op.background,
    // Padding is sharp's; flattening into a JPEG the edge does onto this colour, so an opaque
    // source's bg_ derivative is the plain one's bytes (served, not charged twice).
    edge: (op): boolean => op.fit !== "contain",
    // The fit pads with it; the flattening after the steps reads it too.
    originStep: "fit",
    example: "w_400,h_300,fit_contain,bg_FF8800",
  }),
  token({
    prefix: "br",
    option: "brightness",
    parse: (value) => signedIntegerIn(value, colourAdjustRange),
    fields: {
      operands: { brightness: optional(integer(colourAdjustRange)) },
      resolve: (spec): { brightness?: number } => ({ brightness: colourAdjustment(spec.brightness, 0, spec) }),
    },
    canonical: (op): string | undefined => spelled(op.brightness),
    // The edge has no colour operations.
    edge: false,
    originStep: "brightness",
    example: "br_20",
  }),
  token({
    prefix: "ct",
    option: "contrast",
    parse: (value) => signedIntegerIn(value, colourAdjustRange),
    fields: {
      operands: { contrast: optional(integer(colourAdjustRange)) },
      resolve: (spec): { contrast?: number } => ({ contrast: colourAdjustment(spec.contrast, 0, spec) }),
    },
    canonical: (op): string | undefined => spelled(op.contrast),
    edge: false,
    originStep: "contrast",
    example: "ct_-30",
  }),
  token({
    prefix: "sat",
    option: "saturation",
    parse: (value) => signedIntegerIn(value, colourAdjustRange),
    fields: {
      operands: { saturation: optional(integer(colourAdjustRange)) },
      resolve: (spec): { saturation?: number } => ({ saturation: colourAdjustment(spec.saturation, 0, spec) }),
    },
    canonical: (op): string | undefined => spelled(op.saturation),
    edge: false,
    originStep: "saturation",
    example: "sat_-100",
  }),
  token({
    prefix: "gam",
    option: "gamma",
    parse: (value) => decimalIn(value, gammaRange),
    fields: {
      operands: { gamma: optional(decimal(gammaRange)) },
      resolve: (spec): { gamma?: number } => ({ gamma: colourAdjustment(spec.gamma, DEFAULT_GAMMA, spec) }),
    },
    canonical: (op): string | undefined => spelled(op.gamma),
    edge: false,
    originStep: "gamma",
    example: "gam_2.2",
  }),
  token({
    prefix: "anim",
    option: "animated",
    parse: (value) => {
      oneOf(value, animValues);
      return false as const;
    },
    fields: {
      operands: { animated: withDefault(flag, true) },
      // The facts are the source's and the output's size: frames and placeholders change neither.
      // A video is every frame: anim_false beside f_mp4 or f_webm changes nothing.
      resolve: (spec): { animated: boolean } => ({ animated: asksFacts(spec) || asksVideo(spec) !== undefined ? true : (spec.animated ?? true) }),
    },
    canonical: (op): string | undefined => (op.animated ? undefined : "false"),
    // The edge never reads an animation (an animated source goes to the origin whole), so on what it does read the token changes nothing.
    edge: true,
    originStep: "encode",
    example: "anim_false",
  }),
  token({
    prefix: "ph",
    option: "placeholder",
    parse: (value) => oneOf(value, placeholderValues),
    fields: {
      operands: { placeholder: optional(choice(placeholderValues)) },
      resolve: (spec): { placeholder?: PlaceholderKind } => ({ placeholder: asksFacts(spec) ? undefined : spec.placeholder }),
    },
    canonical: (op): string | undefined => op.placeholder,
    // ThumbHash's render and the LQIP encode live only at the origin.
    edge: false,
    originStep: "encode",
    example: "ph_lqip",
  }),
  token({
    prefix: "pg",
    option: "page",
    parse: (value) => integerIn(value, pageRange),
    // Always written: a PDF has no page without it, so pg_1 is not the default there.
    fields: { operands: { page: optional(integer(pageRange)) }, resolve: (spec): { page?: number } => ({ page: spec.page }) },
    canonical: (op): string | undefined => spelled(op.page),
    // Pages are read by MuPDF and libvips at the origin.
    edge: false,
    originStep: "open",
    example: "w_400,pg_2",
  }),
  token({
    prefix: "l",
    option: "overlay",
    parse: (value) => (isTextOverlaySpelling(value) ? textOverlayIn(value) : matching(value, OVERLAY_FILE_ID, `a file id (file_...) or ${TEXT_SPELLING}`)),
    write: (value) => (typeof value === "string" ? value : textOverlayValue(value)),
    fields: {
      operands: { overlay: optional(record({ fileId: pattern(OVERLAY_FILE_ID), ...overlayPlacement })), textOverlay: textOverlayOperand },
      resolve: (spec): { overlay?: TransformOverlay; textOverlay?: TransformTextOverlay } => ({ overlay: resolveOverlay(spec), textOverlay: resolveTextOverlay(spec) }),
      // The file id names the token in the problem when the overlay cannot be drawn; `bytes` is the
      // length of the overlay's bytes at the body's start (splitTransformBody).
      wire: {
        operands: {
          overlay: optional(record({ file_id: pattern(OVERLAY_FILE_ID), bytes: integer({ min: 1, max: OVERLAY_MAX_BYTES }), ...overlayPlacement })),
          text_overlay: textOverlayOperand,
        },
        send: ({ overlay, textOverlay }, { overlayBytes }) => {
          // An overlay without its bytes would be dropped at the origin, and the plain image billed as the overlaid one.
          if (overlay !== undefined && overlayBytes === undefined) throw new Error(`the overlay ${overlay.fileId} is in the transform but its bytes are not sent`);
          return {
            overlay: overlay === undefined || overlayBytes === undefined ? undefined : { file_id: overlay.fileId, bytes: overlayBytes, gravity: overlay.gravity, width: overlay.width, opacity: overlay.opacity },
            text_overlay: textOverlay,
          };
        },
      },
    },
    canonical: (op): string | undefined => op.overlay?.fileId ?? (op.textOverlay === undefined ? undefined : textOverlayValue(op.textOverlay)),
    // Its bytes are another file's, read at the origin with the source; text is drawn with the origin's fonts.
    edge: false,
    originStep: "overlay",
    example: "l_file_8kT2bQ7xLw3mZr9Xc1Vd",
  }),
  token({
    prefix: "lg",
    option: "overlayGravity",
    parse: (value) => oneOf(value, overlayGravityValues),
    fields: null,
    canonical: (op): string | undefined => {
      const placed = placedOverlay(op);
      return placed === undefined || placed.gravity === DEFAULT_OVERLAY_GRAVITY ? undefined : placed.gravity;
    },
    edge: false,
    originStep: "overlay",
    example: "l_file_8kT2bQ7xLw3mZr9Xc1Vd,lg_southeast",
  }),
  token({
    prefix: "lw",
    option: "overlayWidth",
    parse: (value) => integerIn(value, overlayWidthRange),
    fields: null,
    canonical: (op): string | undefined => spelled(placedOverlay(op)?.width),
    edge: false,
    originStep: "overlay",
    example: "l_file_8kT2bQ7xLw3mZr9Xc1Vd,lw_25",
  }),
  token({
    prefix: "lo",
    option: "overlayOpacity",
    parse: (value) => integerIn(value, overlayOpacityRange),
    fields: null,
    canonical: (op): string | undefined => {
      const placed = placedOverlay(op);
      return placed === undefined || placed.opacity === DEFAULT_OVERLAY_OPACITY ? undefined : String(placed.opacity);
    },
    edge: false,
    originStep: "overlay",
    example: "l_file_8kT2bQ7xLw3mZr9Xc1Vd,lo_40",
  }),
  token({
    prefix: "co",
    option: "textColour",
    parse: (value) => matching(value, TEXT_COLOUR_HEX, "six hex digits RRGGBB").toLowerCase(),
    // Folded into l_text's fields (resolveTextOverlay).
    fields: null,
    canonical: (op): string | undefined => (op.textOverlay === undefined || op.textOverlay.colour === DEFAULT_TEXT_COLOUR ? undefined : op.textOverlay.colour),
    edge: false,
    originStep: "overlay",
    example: "l_text:sans_32:Hello,co_FF8800",
  }),
  token({
    prefix: "lb",
    option: "textBox",
    parse: (value) => matching(value, TEXT_BOX_HEX, "RRGGBB or RRGGBBAA hex digits").toLowerCase(),
    fields: null,
    canonical: (op): string | undefined => op.textOverlay?.box,
    edge: false,
    originStep: "overlay",
    example: "l_text:sans_32:Hello,lb_00000080",
  }),
  token({
    prefix: "lp",
    option: "textPadding",
    parse: (value) => integerIn(value, textPaddingRange),
    fields: null,
    canonical: (op): string | undefined => (op.textOverlay === undefined || op.textOverlay.padding === DEFAULT_TEXT_PADDING ? undefined : String(op.textOverlay.padding)),
    edge: false,
    originStep: "overlay",
    example: "l_text:sans_32:Hello,lp_8",
  }),
  token({
    prefix: "dpr",
    option: "dpr",
    parse: dprIn,
    fields: null,
    canonical: null,
    edge: true,
    originStep: null,
    example: "w_400,dpr_2",
  }),
  token({
    prefix: "s",
    option: "signature",
    parse: (value) => matching(value, SIGNATURE, `${SIGNATURE_LENGTH} base64url characters`),
    fields: null,
    canonical: null,
    edge: true,
    originStep: null,
    example: "w_400,s_AAAAAAAAAAAAAAAAAAAAAA",
  }),
] as const;

export type TransformToken = (typeof TRANSFORM_TOKENS)[number];

/** What every declaration is, whatever its option, value and fields: the derived types and the resolver take any list of them. */
export interface DeclaredToken {
  prefix: string;
  option: string;
  parse(value: string): unknown;
  fields: {
    operands: OperandMap;
    resolve(spec: never): object;
    wire?: { operands: OperandMap; send(values: never, call: OriginCall): object };
  } | null;
}

type OperandsOf<T> = T extends { fields: infer Fields } ? (NonNullable<Fields> extends { operands: infer Operands } ? Operands : never) : never;
type WireOperandsOf<T> = T extends { fields: infer Fields } ? (NonNullable<Fields> extends { wire?: { operands: infer Wire } } ? Wire : OperandsOf<T>) : never;
/** Every field a token decides, as [name, operand]. */
type FieldsOf<Operands> = Operands extends unknown ? { [K in keyof Operands]: [K, Operands[K]] }[keyof Operands] : never;
type Always<Field> = Field extends [infer Name, Operand<unknown, "required" | "defaulted">] ? Name : never;
type Sometimes<Field> = Field extends [infer Name, Operand<unknown, "optional">] ? Name : never;
type Sent<Field> = Field extends [infer Name, Operand<unknown, "required">] ? Name : never;
type Unsent<Field> = Field extends [infer Name, Operand<unknown, "optional" | "defaulted">] ? Name : never;
type ValueOf<Field> = Field extends [unknown, Operand<infer Value>] ? Value : never;

// The registry's own functions take the spec and the operation, whose types are read from the
// registry: each is an interface over mapped types of the token union, not a generic applied to it,
// because an interface's base types and a mapped type's keys are read only when a member is asked
// for. A type alias there fails to compile (TS7022) whenever a file using it is checked first.

// What a transform segment asked for, exactly as written (aliases resolved, nothing folded): one
// optional field per token, typed by what its grammar parses. canonicalTransform applies the defaults.
type SpecFields = { -readonly [T in TransformToken as T["option"]]?: ReturnType<T["parse"]> };
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so its fields are read lazily (above)
export interface TransformSpec extends SpecFields {}

type AlwaysResolved = { -readonly [F in FieldsOf<OperandsOf<TransformToken>> as Always<F>]: ValueOf<F> };
type SometimesResolved = { -readonly [F in FieldsOf<OperandsOf<TransformToken>> as Sometimes<F>]?: ValueOf<F> };

// The operation a transform performs, with defaults applied and dpr folded into the size: what the
// compute stage executes and what canonicalTransform serializes. Every field some token decides.
export interface ResolvedTransform extends AlwaysResolved, SometimesResolved {}

/** A spec read by any list of tokens (a copy of the registry in a test): one optional field per token. */
export type SpecOf<Tokens extends readonly DeclaredToken[]> = { -readonly [T in Tokens[number] as T["option"]]?: ReturnType<T["parse"]> };

/** The operation any list of tokens resolves to. */
export type OperationOf<Tokens extends readonly DeclaredToken[]> = { -readonly [F in FieldsOf<OperandsOf<Tokens[number]>> as Always<F>]: ValueOf<F> } & {
  -readonly [F in FieldsOf<OperandsOf<Tokens[number]>> as Sometimes<F>]?: ValueOf<F>;
};

/** The origin's options from a list of tokens, as the origin reads them (defaults applied). */
export type WireOf<Tokens extends readonly DeclaredToken[]> = { -readonly [F in FieldsOf<WireOperandsOf<Tokens[number]>> as Always<F>]: ValueOf<F> } & {
  -readonly [F in FieldsOf<WireOperandsOf<Tokens[number]>> as Sometimes<F>]?: ValueOf<F>;
};

/** The origin's options from a list of tokens, as the edge writes them (a defaulted field may be left out). */
export type WireInputOf<Tokens extends readonly DeclaredToken[]> = { -readonly [F in FieldsOf<WireOperandsOf<Tokens[number]>> as Sent<F>]: ValueOf<F> } & {
  -readonly [F in FieldsOf<WireOperandsOf<Tokens[number]>> as Unsent<F>]?: ValueOf<F>;
};

/** A transform at a fixed encoder quality: all an encoder without the perceptual metric (the edge's) can make. */
export type FixedQualityTransform = ResolvedTransform & { quality: number };

export function hasFixedQuality(op: ResolvedTransform): op is FixedQualityTransform {
  return typeof op.quality === "number";
}

export type TransformOptionName = TransformToken["option"];

/**
 * An option's value as its token spells it: the declaration's writer for a structured value, else
 * `String(value)`; a string is taken as the token's own spelling. The value is the caller's,
 * unchecked: the written token is parsed again.
 */
export function writeTokenValue(declaration: TransformToken, value: unknown): string {
  // The union of every declaration's writer takes only its own value type; the reparse is the check.
  if (declaration.write === undefined || typeof value === "string") return String(value);
  return (declaration.write as (value: unknown) => string)(value);
}

/** The canonical tokens of a resolved operation, in registry order. */
export function canonicalTokens(op: ResolvedTransform): string[] {
  const tokens: string[] = [];
  for (const declaration of TRANSFORM_TOKENS) {
    const value = declaration.canonical?.(op);
    if (value !== undefined) tokens.push(`${declaration.prefix}_${value}`);
  }
  return tokens;
}

function edgeApplies(declaration: TransformToken, op: ResolvedTransform): boolean {
  return typeof declaration.edge === "boolean" ? declaration.edge : declaration.edge(op);
}

/**
 * Whether the edge's pipeline has every operation `op` asks for: each token in its canonical form
 * must be on the edge's allow-list. Whether the source and output fit the edge's budget is the
 * edge's own question (workers/edge-image/edge-pipeline.ts).
 */
export function edgeAppliesAll(op: ResolvedTransform): op is FixedQualityTransform {
  return TRANSFORM_TOKENS.every((declaration) => declaration.canonical?.(op) === undefined || edgeApplies(declaration, op));
}

/**
 * Every token the spec holds but the signature, each as its value reads back (`w_400`, `q_auto:good`),
 * in registry order and with nothing folded: the form of a transform whose meaning the edge decides
 * (a preset's name), where folding by this URL alone could drop a token that overrides the preset.
 */
export function writtenTokens(spec: TransformSpec): string[] {
  const tokens: string[] = [];
  for (const declaration of TRANSFORM_TOKENS) {
    const value = spec[declaration.option];
    if (value !== undefined && declaration.option !== "signature") tokens.push(`${declaration.prefix}_${writeTokenValue(declaration, value)}`);
  }
  return tokens;
}

