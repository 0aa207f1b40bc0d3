// The edge-to-origin contract for /v1/pdf/compress: the PDF in, the output (or the original,
// when compress could not do better) out, with this meta framed in front. The stats and
// warnings are the public ones as they are, so the edge adds only delivery and billing.
import { z } from "@hono/zod-openapi";
import { pdfCompressOptionsSchema } from "../pdf-options.ts";

export const PDF_COMPRESS_PATH = "/pdf/compress";

/** Why an image was left as it was. */
export const PDF_IMAGE_KEPT_REASONS = [
  "not_drawn",
  "soft_mask",
  "bilevel",
  "colorspace_kept",
  "explicit_mask",
  "alpha_in_data",
  "too_small",
  "jpeg_already_at_quality",
  "not_smaller",
  "decode_failed",
  "restored_for_quality",
] as const;

export const pdfImageRewriteSchema = z
  .object({
    object_number: z.number().int(),
    pages: z.array(z.number().int()),
    before: z.object({
      width: z.number().int(),
      height: z.number().int(),
      bytes: z.number().int(),
      filters: z.array(z.string()),
      dpi: z.number().nullable(),
    }),
    after: z
      .object({
        width: z.number().int(),
        height: z.number().int(),
        bytes: z.number().int(),
        filter: z.string(),
        dpi: z.number().nullable(),
        quality: z.number().int().nullable(),
      })
      .nullable()
      .openapi({ description: "null when the image was kept (see `kept_reason`)" }),
    kept_reason: z.enum(PDF_IMAGE_KEPT_REASONS).nullable(),
  })
  .openapi("PdfImageRewrite", { description: "One image before and after, with its effective DPI" });

export const pdfBytesByCategorySchema = z
  .object({
    images: z.number().int(),
    fonts: z.number().int(),
    content_streams: z.number().int(),
    metadata: z.number().int(),
    embedded_files: z.number().int(),
    thumbnails: z.number().int(),
    other: z.number().int(),
  })
  .openapi("PdfBytesByCategory", { description: "Bytes by category; the categories add up to the file size" });

export const pdfTargetSearchSchema = z
  .object({
    quality: z.number().int(),
    resolution_scale: z.number(),
    target_dpi: z.number(),
    estimated_bytes: z.number().int(),
    encodes: z.number().int().openapi({ description: "Image and soft-mask encodes of the whole request, the first run's included" }),
    saves: z.number().int().openapi({ description: "Full document saves of the whole request" }),
  })
  .openapi({ description: "With a size target: the JPEG quality and resolution (share of the profile's DPI) chosen, the size estimated for them, and the image encodes and document saves it took" });

export const pdfVerifySchema = z
  .object({
    dpi: z.number().int(),
    threshold: z.number(),
    pages: z.array(z.object({ page: z.number().int(), ssim: z.number() })),
    min_ssim: z.number(),
    images_restored: z.number().int().openapi({ description: "Images kept original because their pages stayed below the threshold" }),
    images_requality: z.number().int().openapi({ description: "Images encoded again at a higher quality" }),
    rounds: z.number().int().openapi({ description: "Outputs produced again after the first" }),
  })
  .openapi({ description: "With `verify_quality`: per-page luma SSIM of output against input at `dpi`, the minimum, and the images kept original or re-encoded at higher quality to pass" });

export const pdfZopfliSchema = z
  .object({
    streams_examined: z.number().int(),
    streams_recompressed: z.number().int(),
    streams_skipped: z.number().int().openapi({ description: "Streams left as they were because Zopfli's time budget ran out" }),
    bytes_saved: z.number().int(),
    cpu_ms: z.number().int().openapi({ description: "Time spent compressing, on one thread: its CPU time" }),
    output_bytes_before: z.number().int(),
  })
  .openapi({ description: "With `zopfli`: Flate streams recompressed, bytes saved, and the extra CPU time in milliseconds" });

export const pdfJbig2Schema = z
  .object({
    images_converted: z.number().int(),
    images_downsampled: z.number().int(),
    bytes_before: z.number().int(),
    bytes_after: z.number().int(),
    globals_bytes: z.number().int(),
    symbols: z.number().int(),
    cpu_ms: z.number().int(),
  })
  .openapi({ description: "Unless `jbig2: off`: bilevel images converted to JBIG2 (and how many were first brought down to the profile's 1-bit resolution), their bytes before and after (the shared symbol dictionary, `globals_bytes`, included), the symbols in it, and the CPU time in milliseconds" });

export const pdfLinearizeSchema = z
  .object({ cpu_ms: z.number().int(), bytes_before: z.number().int(), bytes_after: z.number().int() })
  .openapi({ description: "With `linearize`: the file's size before and after linearization and the CPU time in milliseconds" });

export const pdfCompressStatsSchema = z
  .object({
    original_bytes: z.number().int(),
    output_bytes: z.number().int(),
    ratio: z.number(),
    pages: z.number().int(),
    profile: z.string(),
    images_rewritten: z.number().int(),
    images_kept: z.number().int(),
    bytes_saved_by_category: pdfBytesByCategorySchema,
    images: z.array(pdfImageRewriteSchema),
    target_bytes: z.number().int().optional().openapi({ description: "With `max_size_mb` or `max_base64_bytes`: the byte budget" }),
    target_met: z.boolean().optional().openapi({ description: "With a size target: whether the returned file fits it; when false, the smallest result reached came back" }),
    target_search: pdfTargetSearchSchema.optional(),
    verify: pdfVerifySchema.optional(),
    zopfli: pdfZopfliSchema.optional(),
    jbig2: pdfJbig2Schema.optional(),
    linearize: pdfLinearizeSchema.optional(),
  })
  .openapi("PdfCompressStats");

/**
 * Stable codes for what a client may act on; `detail` is for people and may change. The ones
 * that return the original: `not_smaller`, `output_unsound` (the output failed its soundness
 * checks) and `document_unprocessable` (a part of the document could not be rewritten).
 */
export const PDF_WARNING_CODES = [
  "conformance_removed",
  "signatures_invalidated",
  "fonts_not_subset",
  "document_unprocessable",
  "output_unsound",
  "not_smaller",
  "target_not_met",
] as const;

export type PdfWarningCode = (typeof PDF_WARNING_CODES)[number];

export const pdfWarningSchema = z
  .object({ code: z.enum(PDF_WARNING_CODES), detail: z.string() })
  .openapi("PdfWarning", { description: PDF_WARNING_CODES.map((code) => `\`${code}\``).join(", ") });

export const pdfCompressReplySchema = z.object({
  returned_original: z.boolean().openapi({ description: "The input came back unchanged (not smaller, or the output failed its soundness checks): $0" }),
  warnings: z.array(pdfWarningSchema),
  stats: pdfCompressStatsSchema,
});

export const pdfCompressEndpoint = { path: PDF_COMPRESS_PATH, options: pdfCompressOptionsSchema, reply: pdfCompressReplySchema } as const;

export type PdfWarning = z.infer<typeof pdfWarningSchema>;
export type PdfImageRewrite = z.infer<typeof pdfImageRewriteSchema>;
export type PdfBytesByCategory = z.infer<typeof pdfBytesByCategorySchema>;
export type PdfCompressStats = z.infer<typeof pdfCompressStatsSchema>;
export type PdfImageKeptReason = (typeof PDF_IMAGE_KEPT_REASONS)[number];
export type PdfTargetSearch = z.infer<typeof pdfTargetSearchSchema>;
export type PdfVerify = z.infer<typeof pdfVerifySchema>;
export type PdfZopfli = z.infer<typeof pdfZopfliSchema>;
export type PdfJbig2 = z.infer<typeof pdfJbig2Schema>;
export type PdfLinearize = z.infer<typeof pdfLinearizeSchema>;
export type PdfCompressReply = z.infer<typeof pdfCompressReplySchema>;
