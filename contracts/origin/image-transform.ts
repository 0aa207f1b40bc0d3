// The edge-to-origin contract for a transform the edge cannot compute itself (large sources,
// blur, sharpen, rotation, EXIF orientation, padding, content-aware crops, AVIF/GIF/TIFF
// sources). Both sides validate with this schema.
import { z } from "@hono/zod-openapi";
import { blurRange, FACTS_FORMAT, fitValues, flipValues, pageRange, gravityValues, OUTPUT_FORMATS, placeholderValues, qualityRange, sharpenRange, sizeRange } from "../transform/token-values.ts";
import type { ResolvedTransform } from "../transform/token-values.ts";
import { outputChoices, type OutputChoice } from "../transform/output-format.ts";
import { qualityLevelSchema } from "../perceptual-quality-schema.ts";

export const IMAGE_TRANSFORM_PATH = "/image/transform";

const size = z.number().int().min(sizeRange.min).max(sizeRange.max).optional();

export const originTransformSchema = z
  .object({
    width: size,
    height: size,
    fit: z.enum(fitValues).default("inside"),
    gravity: z.enum(gravityValues).default("center"),
    // A number, or q_auto's level (the origin searches the quality that reaches its score).
    quality: z.union([z.number().int().min(qualityRange.min).max(qualityRange.max), z.object({ auto: qualityLevelSchema }).strict()]),
    rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
    flip: z.enum(flipValues).optional(),
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

export function originTransformOptions(op: ResolvedTransform, output: OutputChoice): OriginTransformOptions {
  const { width, height, fit, gravity, quality, rotate, flip, blur, sharpen, animated, placeholder, page, facts } = op;
  return { width, height, fit, gravity, quality, rotate, flip, blur, sharpen, output, format_auto: op.format === "auto", animated, placeholder, page, facts };
}
