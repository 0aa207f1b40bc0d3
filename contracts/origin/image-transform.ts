// The edge-to-origin contract for a transform the edge cannot compute itself (large sources,
// blur, sharpen, rotation, EXIF orientation, padding, content-aware crops, overlays, AVIF/GIF/TIFF
// sources). Both sides validate with this schema.
//
// The body is the source's bytes. With an overlay (l_) the overlay file's bytes come first and
// `overlay.bytes` says how many: the source still streams from R2 behind them, unbuffered, and the
// origin takes both from one read (splitTransformBody).
import { z } from "@hono/zod-openapi";
import { OVERLAY_MAX_BYTES } from "../limits/overlay.ts";
import { ProblemError } from "../problems/catalogue.ts";
import { blurRange, colourAdjustRange, cropOffsetRange, gammaRange, cropSizeRange, FACTS_FORMAT, fitValues, focalRange, flipValues, OVERLAY_FILE_ID, overlayGravityValues, overlayOpacityRange, overlayWidthRange, pageRange, gravityValues, OUTPUT_FORMATS, placeholderValues, qualityRange, sharpenRange, sizeRange, trimRange } from "../transform/token-values.ts";
import type { ResolvedTransform } from "../transform/token-values.ts";
import { outputChoices, type OutputChoice } from "../transform/output-format.ts";
import { qualityLevelSchema } from "../perceptual-quality-schema.ts";

export const IMAGE_TRANSFORM_PATH = "/image/transform";

const size = z.number().int().min(sizeRange.min).max(sizeRange.max).optional();
const colourAdjust = z.number().int().min(colourAdjustRange.min).max(colourAdjustRange.max).optional();

export const originTransformSchema = z
  .object({
    width: size,
    height: size,
    fit: z.enum(fitValues).default("inside"),
    gravity: z.enum(gravityValues).default("center"),
    focus: z.object({ x: z.number().min(focalRange.min).max(focalRange.max), y: z.number().min(focalRange.min).max(focalRange.max) }).strict().optional(),
    // A number, or q_auto's level (the origin searches the quality that reaches its score).
    quality: z.union([z.number().int().min(qualityRange.min).max(qualityRange.max), z.object({ auto: qualityLevelSchema }).strict()]),
    rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
    flip: z.enum(flipValues).optional(),
    crop: z
      .object({
        x: z.number().int().min(cropOffsetRange.min).max(cropOffsetRange.max),
        y: z.number().int().min(cropOffsetRange.min).max(cropOffsetRange.max),
        width: z.number().int().min(cropSizeRange.min).max(cropSizeRange.max),
        height: z.number().int().min(cropSizeRange.min).max(cropSizeRange.max),
      })
      .strict()
      .optional(),
    trim: z.number().int().min(trimRange.min).max(trimRange.max).optional(),
    // Lower-case RRGGBB (bg_): contain's padding and a JPEG's flattened transparency.
    background: z.string().regex(/^[0-9a-f]{6}$/).optional(),
    brightness: colourAdjust,
    contrast: colourAdjust,
    saturation: colourAdjust,
    gamma: z.number().min(gammaRange.min).max(gammaRange.max).optional(),
    blur: z.number().min(blurRange.min).max(blurRange.max).optional(),
    sharpen: z.number().min(sharpenRange.min).max(sharpenRange.max).optional(),
    output: z.enum(outputChoices),
    // Whether the format was f_auto's choice: auto never drops an animation, a named still format takes the first frame.
    format_auto: z.boolean().default(false),
    animated: z.boolean().default(true),
    placeholder: z.enum(placeholderValues).optional(),
    page: z.number().int().min(pageRange.min).max(pageRange.max).optional(),
    // f_json: the payload is the source's facts (image-facts.ts), not an image.
    facts: z.literal(true).optional(),
    overlay: z
      .object({
        // The file, for the problem that names the token when the overlay cannot be drawn.
        file_id: z.string().regex(OVERLAY_FILE_ID),
        // Length of the overlay's bytes at the body's start.
        bytes: z.number().int().min(1).max(OVERLAY_MAX_BYTES),
        gravity: z.enum(overlayGravityValues),
        width: z.number().int().min(overlayWidthRange.min).max(overlayWidthRange.max).optional(),
        opacity: z.number().int().min(1).max(overlayOpacityRange.max),
      })
      .strict()
      .optional(),
  })
  .strict();

export type OriginTransformOptions = z.input<typeof originTransformSchema>;

export const originTransformReplySchema = z.object({
  format: z.enum([...OUTPUT_FORMATS, FACTS_FORMAT]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  // Of the payload that follows, so the edge can store it and name its ETag while it streams.
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type OriginTransformMeta = z.infer<typeof originTransformReplySchema>;

export const imageTransformEndpoint = { path: IMAGE_TRANSFORM_PATH, options: originTransformSchema, reply: originTransformReplySchema } as const;

/** `overlayBytes`: the length of the overlay file sent ahead of the source, when `op` has one. */
export function originTransformOptions(op: ResolvedTransform, output: OutputChoice, overlayBytes?: number): OriginTransformOptions {
  const { width, height, fit, gravity, focus, quality, rotate, flip, crop, trim, background, brightness, contrast, saturation, gamma, blur, sharpen, animated, placeholder, page, facts } = op;
  // An overlay without its bytes would be dropped at the origin, and the plain image billed as the overlaid one.
  if (op.overlay !== undefined && overlayBytes === undefined) throw new Error(`the overlay ${op.overlay.fileId} is in the transform but its bytes are not sent`);
  const overlay =
    op.overlay === undefined || overlayBytes === undefined
      ? undefined
      : { file_id: op.overlay.fileId, bytes: overlayBytes, gravity: op.overlay.gravity, width: op.overlay.width, opacity: op.overlay.opacity };
  return { width, height, fit, gravity, focus, quality, rotate, flip, crop, trim, background, brightness, contrast, saturation, gamma, blur, sharpen, output, format_auto: op.format === "auto", animated, placeholder, page, facts, overlay };
}

/** The source and the overlay a transform call's body holds, as its options declare them. */
export function splitTransformBody(body: Uint8Array, options: { overlay?: { bytes: number } | undefined }): { source: Uint8Array; overlay: Uint8Array | null } {
  if (options.overlay === undefined) return { source: body, overlay: null };
  const { bytes } = options.overlay;
  if (body.byteLength <= bytes) throw new ProblemError("validation_failed", `The body has ${body.byteLength} bytes, not an overlay of ${bytes} and a source after it.`);
  return { overlay: body.subarray(0, bytes), source: body.subarray(bytes) };
}
