// Options of the image engine, shared by the edge (validation, OpenAPI) and the
// origin (the engine reads the parsed output type). Defaults live here, once.
import { z } from "@hono/zod-openapi";
import { outputModeSchema } from "./envelope.ts";
import { ANIMATION_LIMITS } from "./limits/animation.ts";
import { PDF_MAX_BYTES } from "./limits/pdf.ts";
import { canonicalFormat, OUTPUT_FORMAT_ALIAS_NAMES } from "./output-format-aliases.ts";
import type { SniffedFormat } from "./sniff.ts";
import { PDF_PAGE_DPI, pageRange } from "./transform/token-values.ts";
import { AUTO_QUALITY_VALUES, DEFAULT_QUALITY_LEVEL, QUALITY_LEVEL_TARGETS, QUALITY_LEVELS } from "./perceptual-quality.ts";

export const IMAGE_DIMENSION_MAX = 16_384;
/** The largest image source, in bytes, any image call takes (a stored upload may be this large; inline sources stop earlier). */
export const IMAGE_SOURCE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A source's byte limit where an image is made of it: a PDF, drawn one page at a time (`pg_`,
 * `options.page`), has the limit the PDF endpoints declare; any other source the image limit.
 */
export function imageSourceMaxBytes(format: SniffedFormat | null): number {
  return format === "pdf" ? PDF_MAX_BYTES : IMAGE_SOURCE_MAX_BYTES;
}

export const IMAGE_MAX_BYTES_LIMIT = 100 * 1024 * 1024;
export const IMAGE_OUTPUT_FORMATS = ["jpeg", "webp", "avif", "png"] as const;
/** What `format` takes by its own names (an alias such as `jpg` is accepted too, output-format-aliases.ts). */
export const IMAGE_FORMAT_CHOICES = [...IMAGE_OUTPUT_FORMATS, "auto", "source"] as const;

const dimension = (axis: "width" | "height") =>
  z
    .number()
    .int()
    .min(1)
    .max(IMAGE_DIMENSION_MAX)
    .nullable()
    .default(null)
    .openapi({
      example: axis === "width" ? 1600 : null,
      description: `Target ${axis} in pixels (1 to ${IMAGE_DIMENSION_MAX}); null keeps it proportional to the other dimension, or the source ${axis} when both are null.`,
    });

export const imageOptionsSchema = z
  .object({
    width: dimension("width"),
    height: dimension("height"),
    fit: z.enum(["inside", "cover", "contain", "fill"]).default("inside").openapi({
      example: "inside",
      description:
        "How the image fits width x height: `inside` keeps the aspect ratio within the box, `cover` fills the box and crops the centre, `contain` fits inside and pads with `background` to exactly the box, `fill` stretches to exactly the box.",
    }),
    enlarge: z.boolean().default(false).openapi({
      example: false,
      description:
        "Allow upscaling. When false the picture is never scaled up: `inside` keeps a smaller image's size, `cover` and `fill` are limited to the source size, `contain` pads the unscaled picture to the box.",
    }),
    background: z
      .string()
      .regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "a CSS hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa")
      .nullable()
      .default(null)
      .openapi({
        example: "#ffffff",
        description:
          "CSS hex colour for `contain` padding and for flattening transparency when the output format has no alpha (JPEG). null: transparent padding where the output format has alpha, white otherwise.",
      }),
    format: z
      .enum([...IMAGE_FORMAT_CHOICES, ...OUTPUT_FORMAT_ALIAS_NAMES])
      .transform(canonicalFormat)
      .default("source")
      .openapi({
        example: "jpeg",
        description:
          "Output format. Default `source`: the source's format family, in one encode: JPEG→JPEG, PNG→PNG (lossless), WebP→WebP, AVIF→AVIF (lossy at `quality`; a flat graphic in WebP stays lossless WebP), GIF→PNG (lossless; an animated GIF→animated WebP, see `animated`), TIFF→JPEG for an opaque photo, PNG for a flat graphic or with transparency. `auto`: keeps transparency, sends flat graphics (few colours) to lossless PNG or lossless WebP and photos to JPEG, WebP or AVIF at `quality`, encodes each candidate and returns the smallest; `stats.candidates` reports what was tried. Name a format to pin it (`jpg` is `jpeg`).",
      }),
    quality: z
      .union([z.number().int().min(1).max(100), z.enum(AUTO_QUALITY_VALUES)])
      .default(76)
      .openapi({
        example: 76,
        description: `Encoder quality 1 to 100 for JPEG, WebP and AVIF, or \`auto\` / \`auto:<level>\` (${QUALITY_LEVELS.join(", ")}; \`auto\` is \`auto:${DEFAULT_QUALITY_LEVEL}\`): the lowest quality whose output still scores at least the level's SSIMULACRA 2 target (${QUALITY_LEVELS.map((level) => `${level} ${QUALITY_LEVEL_TARGETS[level]}`).join(", ")}; 100 is identical, about 90 visually lossless), reported as \`stats.quality\` with \`stats.score\`, \`stats.quality_level\`, \`stats.quality_target\` and \`stats.target_met\`. Auto finds it with a few encodes of a sample of the image, then encodes and scores the whole image (one to five times, up to nine where one quality step jumps past that window: JPEG then tries another quantisation table, WebP another effort, reported as \`stats.jpeg_table\` and \`stats.webp_effort\`) until the output reaches the target and lands at most 4 above it; unless \`chroma_subsampling\` is named it chooses the chroma too. A target no setting reaches answers the smallest output within one point of the best score found, with \`target_met: false\`. A search the call's deadline would cut short answers in time instead: the smallest output that reached the target so far, else the level's typical quality unscored (\`score\` null, \`target_met: false\`). PNG output is lossless and ignores quality, except under \`max_bytes\`: PNG then falls back to palette quantisation, quality picking the palette size (above 75: 256 colours, 51-75: 16, 26-50: 4, up to 25: 2). With \`max_bytes\` the quality is the ceiling of the size search: under auto, when auto's answer does not fit, the size search runs up to auto's quality, so the output is the smaller of the two answers. With \`format: auto\` each lossy candidate is searched to the same target and the smallest wins; lossless candidates are unchanged. An animation kept animated is encoded at the level's typical quality (no score; \`stats.score\` null).`,
      }),
    mozjpeg: z.boolean().default(true).openapi({
      example: true,
      description: "JPEG: mozjpeg trellis quantisation, deringing and its quantisation table (smaller files at the same quality). Does not make the output progressive.",
    }),
    progressive: z.boolean().default(false).openapi({
      example: false,
      description: "JPEG: progressive scan (SOF2, with mozjpeg's scan optimisation) instead of baseline (SOF0).",
    }),
    chroma_subsampling: z.enum(["4:2:0", "4:4:4"]).nullable().default(null).openapi({
      example: "4:2:0",
      description:
        "JPEG and AVIF chroma subsampling. `4:4:4` keeps full colour resolution (sharp red text, flat graphics, smooth colourful gradients) at a larger size. Default (null): 4:2:0, or the search's choice under `quality: \"auto\"`: 4:4:4 for JPEG and AVIF, sharp RGB-to-YUV conversion for WebP, when 4:2:0 cannot reach the level's score or reaches it in more bytes; reported as `stats.chroma_subsampling`. A value named here is kept, auto or not.",
    }),
    strip_metadata: z.boolean().default(true).openapi({
      example: true,
      description:
        "Remove EXIF, XMP and IPTC. Colours are converted to sRGB either way, so dropping the source profile never shifts them; when false the metadata is kept and an sRGB profile is attached.",
    }),
    auto_orient: z.boolean().default(true).openapi({
      example: true,
      description: "Apply the EXIF orientation (all 8, mirrored included) to the pixels, then drop the tag.",
    }),
    max_bytes: z.number().int().min(1).max(IMAGE_MAX_BYTES_LIMIT).nullable().default(null).openapi({
      example: 200_000,
      description:
        "Upper bound on the output size. The engine returns the highest quality (up to `quality`) whose output fits, and reports it with the number of encodes; 422 `max_bytes_unreachable` when even the lowest quality it tries does not fit.",
    }),
    animated: z.boolean().default(true).openapi({
      example: true,
      description:
        `Keep every frame of an animated GIF or WebP, with its timing, when the output format can hold an animation: WebP (so \`source\` turns an animated GIF into animated WebP, and \`auto\` tries only WebP). AVIF, PNG and JPEG named explicitly take the first frame. false: the first frame only. An animation kept animated is limited to ${ANIMATION_LIMITS.max_frames} frames and ${ANIMATION_LIMITS.max_total_pixels / 1_000_000} million pixels across all frames, checked before decoding (413 \`image_too_large\`); false takes the first frame of any animation.`,
    }),
    page: z.number().int().min(pageRange.min).max(pageRange.max).nullable().default(null).openapi({
      example: null,
      description: `The page to make the image of, from 1: required for a PDF source (drawn by MuPDF on white at the output size, at ${PDF_PAGE_DPI} dpi when no size is asked, PNG by default), and a multi-page TIFF's page (default its first). Any other image has page 1 only. A page past the last is 422 \`page_out_of_range\`, a PDF without \`page\` 415. The \`pg_<n>\` transform token.`,
    }),
    placeholder: z.boolean().default(false).openapi({
      example: false,
      description:
        "Also return `placeholder`: the output's ThumbHash, BlurHash, dominant colour and LQIP data URL (of the first frame of an animation), computed in the same call. Free.",
    }),
    keep_source: z.boolean().default(false).openapi({
      example: false,
      description: "Keep the uploaded source file alongside the result.",
    }),
    output: outputModeSchema,
  })
  .strict()
  .openapi("ImageOptions");

/**
 * The chroma an output was encoded with: JPEG and AVIF 4:2:0 or 4:4:4; WebP is always 4:2:0, plain
 * or `sharp_yuv` (its sharper RGB-to-YUV conversion, sharp's `smartSubsample`).
 */
export const OUTPUT_CHROMA = ["4:2:0", "4:4:4", "sharp_yuv"] as const;
export type OutputChroma = (typeof OUTPUT_CHROMA)[number];

export type ImageOptions = z.output<typeof imageOptionsSchema>;
export type ImageOptionsInput = z.input<typeof imageOptionsSchema>;
export type ImageOutputFormat = (typeof IMAGE_OUTPUT_FORMATS)[number];
export type ImageQuality = ImageOptions["quality"];
