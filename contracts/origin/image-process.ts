// The edge-to-origin contract for /v1/image/optimize and each batch item: the source bytes and
// the image options in, the optimized image out, with this meta framed in front of it. The
// stats are the public ImageStats as they are, so the edge passes them on without a copy of
// their shape.
import { z } from "@hono/zod-openapi";
import { IMAGE_OUTPUT_FORMATS, imageOptionsSchema, OUTPUT_CHROMA } from "../image-options.ts";
import { IMAGE_SOURCE_FORMATS } from "../image-source-family.ts";
import { imagePlaceholderSchema } from "./image-placeholder.ts";
import { qualityLevelSchema } from "../perceptual-quality-schema.ts";

export const IMAGE_PROCESS_PATH = "/image/process";

/** What the origin decodes for an optimize call. */
export { IMAGE_SOURCE_FORMATS };

export const imageCandidateSchema = z
  .object({
    format: z.enum(IMAGE_OUTPUT_FORMATS),
    lossless: z.boolean(),
    output_bytes: z.number().int(),
    quality: z.number().int().nullable().openapi({ description: "Encoder quality of this candidate; null when lossless" }),
    score: z.number().nullable().openapi({ description: "Its SSIMULACRA 2 when quality was auto; null otherwise" }),
  })
  .openapi("ImageCandidate", { description: "One encode `format: auto` tried." });

export const imageStatsSchema = z
  .object({
    original_bytes: z.number().int(),
    output_bytes: z.number().int(),
    ratio: z.number().openapi({ description: "output_bytes / original_bytes", example: 0.182 }),
    original_width: z.number().int().openapi({ description: "Upright width of the source (EXIF orientation applied when auto_orient is on)" }),
    original_height: z.number().int(),
    original_format: z.enum(IMAGE_SOURCE_FORMATS).openapi({ example: "jpeg" }),
    quality: z.number().int().nullable().openapi({ description: "Encoder quality used; null for lossless output" }),
    score: z.number().nullable().openapi({
      description: "SSIMULACRA 2 of the output against the rendered pixels (100 identical, about 90 visually lossless) when quality was auto and the output lossy and still, unless the deadline left no time to score it (`target_met` false); null otherwise",
      example: null,
    }),
    quality_level: qualityLevelSchema.nullable().openapi({ description: "The perceptual level auto quality aimed at; null for a numeric quality", example: null }),
    quality_target: z.number().nullable().openapi({
      description: "The SSIMULACRA 2 score the level asks for (`good` 69, ...) when quality was auto; null for a numeric quality",
      example: null,
    }),
    target_met: z.boolean().nullable().openapi({
      description:
        "Whether `score` reached `quality_target`. false when no setting the search may use reaches it (the output is then the highest score any reached, see `quality`), or when the call's deadline stopped the search before any output reached it (the level's typical quality, `score` null): never a silent pass. null when quality was not auto, the output is lossless, or nothing was scored (an animation)",
      example: null,
    }),
    chroma_subsampling: z.enum(OUTPUT_CHROMA).nullable().openapi({
      description:
        "The chroma of a lossy output: JPEG and AVIF `4:2:0` or `4:4:4`, WebP `4:2:0` or `sharp_yuv` (4:2:0 with sharp RGB-to-YUV conversion). Under auto quality the search's choice unless the request named `chroma_subsampling`; null for lossless output",
      example: "4:2:0",
    }),
    jpeg_table: z.number().int().nullable().openapi({
      description:
        "JPEG: the quantisation table the output was encoded with (mozjpeg's numbering, 0 to 8): with `mozjpeg` its own 3 for a numeric quality, 5 under auto quality (it reaches a level's score in fewer bytes, quantising smooth areas in finer steps; `max_bytes` after auto keeps it), or 2 where auto found table 5's quality steps jump past the level's target; 0 (libjpeg's) without `mozjpeg`; null for other formats",
      example: 3,
    }),
    webp_effort: z.number().int().nullable().openapi({
      description:
        "WebP: libwebp's effort (method, 0 to 6) the output was encoded with: 4, or 2 where auto quality found effort 4's quality steps jump past the level's target (effort 4's rate-distortion choices can drop fine texture below some quality at once); null for other formats",
      example: null,
    }),
    lossless: z.boolean(),
    encodes: z.number().int().openapi({ description: "Encodes made (auto candidates and the max_bytes search included)" }),
    orientation_applied: z.number().int().nullable().openapi({ description: "The EXIF orientation applied to the pixels" }),
    first_frame_only: z.boolean().openapi({ description: "The source had several frames or pages; only the first was used" }),
    frames: z.number().int().openapi({ description: "Frames in the output: the source's frame count for an animation kept whole, 1 otherwise", example: 1 }),
    duration_ms: z.number().int().nullable().openapi({ description: "One play of the output animation (the sum of its frame delays); null for a still image", example: null }),
    format_chosen_by_auto: z.boolean(),
    candidates: z.array(imageCandidateSchema).nullable().openapi({ description: "What `format: auto` tried, in order; null for any other format (one encode)" }),
  })
  .openapi("ImageStats");

export const imageProcessReplySchema = z.object({
  format: z.enum(IMAGE_OUTPUT_FORMATS),
  width: z.number().int(),
  height: z.number().int(),
  stats: imageStatsSchema,
  // Of the output, when options.placeholder asked for it.
  placeholder: imagePlaceholderSchema.nullable(),
});

export const imageProcessEndpoint = { path: IMAGE_PROCESS_PATH, options: imageOptionsSchema, reply: imageProcessReplySchema } as const;

export type ImageCandidate = z.infer<typeof imageCandidateSchema>;
export type ImageStats = z.infer<typeof imageStatsSchema>;
export type ImageProcessReply = z.infer<typeof imageProcessReplySchema>;
