import { z } from "@hono/zod-openapi";
import { chargeOnce } from "../billing/charge-once.ts";
import { billingSchema } from "../../contracts/envelope.ts";
import type { PdfAnalyzeOptions, PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { pdfCompressPrice } from "../../contracts/pricing.ts";
import type { Bindings } from "../env.ts";
import { deleteFile } from "../files/file-store.ts";
import { originCompute } from "../origin/origin-client.ts";
import { sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";

const PDF_ANALYZE_PATH = "/pdf/analyze";
const PDF_COMPRESS_PATH = "/pdf/compress";

export const pdfAnalysisSchema = z
  .object({
    composition: z
      .object({
        pages: z.number().int(),
        page_sizes_pt: z.array(z.object({ width: z.number(), height: z.number() })),
        bytes: z.record(z.string(), z.number()).openapi({ description: "Bytes by category: images, fonts, content streams, metadata, embedded files, thumbnails, other" }),
        total_bytes: z.number().int(),
        object_count: z.number().int(),
        version: z.string(),
        producer: z.string().nullable(),
      })
      .passthrough(),
    flags: z.record(z.string(), z.unknown()).openapi({ description: "encrypted, signed (field names), PDF/A or PDF/X conformance, forms, JavaScript, tagged, linearized" }),
    images: z.array(z.record(z.string(), z.unknown())).openapi({
      description: "Per image: object number, pages, pixel size, bits, colour space, filters, bytes, soft mask, placed size, effective DPI (lowest placement), estimated JPEG quality",
    }),
    fonts: z.array(z.record(z.string(), z.unknown())),
    projection: z.record(z.string(), z.record(z.string(), z.unknown())).openapi({
      description: "Per profile (screen, email, ebook, print, prepress): estimated output bytes, savings and quality_risk",
    }),
    billing: billingSchema,
  })
  .openapi("PdfAnalysis");

export const pdfCompressResultSchema = deliveredOutputSchema
  .extend({
    returned_original: z.boolean().openapi({ description: "The input came back unchanged (not smaller, or the output failed its soundness checks): $0" }),
    warnings: z.array(z.string()),
    stats: z
      .object({
        original_bytes: z.number().int(),
        output_bytes: z.number().int(),
        ratio: z.number(),
        pages: z.number().int(),
        profile: z.string(),
        images_rewritten: z.number().int(),
        images_kept: z.number().int(),
        bytes_saved_by_category: z.record(z.string(), z.number()),
        images: z.array(z.record(z.string(), z.unknown())).openapi({ description: "Per image before/after, with DPI" }),
        target_bytes: z.number().int().optional().openapi({ description: "With `max_size_mb` or `max_base64_bytes`: the byte budget" }),
        target_met: z.boolean().optional().openapi({ description: "With a size target: whether the returned file fits it; when false, the smallest result reached came back" }),
        target_search: z
          .object({
            quality: z.number().int(),
            resolution_scale: z.number(),
            target_dpi: z.number(),
            estimated_bytes: z.number().int(),
            encodes: z.number().int(),
            saves: z.number().int(),
          })
          .optional()
          .openapi({ description: "With a size target: the JPEG quality and resolution (share of the profile's DPI) chosen, the size estimated for them, and the image encodes and document saves it took" }),
        verify: z
          .object({
            dpi: z.number().int(),
            threshold: z.number(),
            pages: z.array(z.object({ page: z.number().int(), ssim: z.number() })),
            min_ssim: z.number(),
            images_restored: z.number().int(),
            images_requality: z.number().int(),
            rounds: z.number().int(),
          })
          .optional()
          .openapi({ description: "With `verify_quality`: per-page luma SSIM of output against input at `dpi`, the minimum, and the images kept original or re-encoded at higher quality to pass" }),
        zopfli: z
          .object({
            streams_examined: z.number().int(),
            streams_recompressed: z.number().int(),
            streams_skipped: z.number().int(),
            bytes_saved: z.number().int(),
            cpu_ms: z.number().int(),
            output_bytes_before: z.number().int(),
          })
          .optional()
          .openapi({ description: "With `zopfli`: Flate streams recompressed, bytes saved, and the extra CPU time in milliseconds" }),
        jbig2: z
          .object({
            images_converted: z.number().int(),
            images_downsampled: z.number().int(),
            bytes_before: z.number().int(),
            bytes_after: z.number().int(),
            globals_bytes: z.number().int(),
            symbols: z.number().int(),
            cpu_ms: z.number().int(),
          })
          .optional()
          .openapi({ description: "Unless `jbig2: off`: bilevel images converted to JBIG2 (and how many were first brought down to the profile's 1-bit resolution), their bytes before and after (the shared symbol dictionary, `globals_bytes`, included), the symbols in it, and the CPU time in milliseconds" }),
        linearize: z
          .object({ cpu_ms: z.number().int(), bytes_before: z.number().int(), bytes_after: z.number().int() })
          .optional()
          .openapi({ description: "With `linearize`: the file's size before and after linearization and the CPU time in milliseconds" }),
      })
      .passthrough(),
    billing: billingSchema,
  })
  .openapi("PdfCompressResult");

export type PdfCompressResult = z.infer<typeof pdfCompressResultSchema>;

type PdfEnv = Pick<Bindings, "DB" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

interface OriginCompressMeta {
  stats: PdfCompressResult["stats"];
  warnings: string[];
  returned_original: boolean;
}

/** Free, but recorded in the ledger at $0 so that usage counts it. */
export async function analyzePdf(
  env: PdfEnv,
  request: { accountId: string; source: ResolvedSource; options: PdfAnalyzeOptions; chargeKey: string },
): Promise<z.infer<typeof pdfAnalysisSchema>> {
  const frame = await originCompute<Omit<z.infer<typeof pdfAnalysisSchema>, "billing">>(env, PDF_ANALYZE_PATH, {
    body: await sourceBody(request.source),
    options: request.options,
  });
  await frame.payload.cancel();
  await chargeOnce(env.DB, { accountId: request.accountId, chargeKey: request.chargeKey, operation: "pdf.analyze", amountMicros: 0 });
  return { ...frame.meta, billing: { charged_micros: 0 } };
}

/**
 * Compresses through the origin, stores the output and bills by the input's size tier. When the
 * origin had to return the original (not smaller, or unsound), the caller still gets it, at $0.
 */
export async function compressPdf(
  env: PdfEnv,
  request: { accountId: string; source: ResolvedSource; options: PdfCompressOptions; chargeKey: string; baseUrl: string },
): Promise<PdfCompressResult> {
  const frame = await originCompute<OriginCompressMeta>(env, PDF_COMPRESS_PATH, {
    body: await sourceBody(request.source),
    options: request.options,
  });
  const meta = frame.meta;
  const stem = (request.source.filename ?? "document").replace(/\.pdf$/i, "") || "document";
  const price = pdfCompressPrice({ inputBytes: request.source.size, madeSmaller: !meta.returned_original, verifyQuality: request.options.verify_quality });
  const delivered = await deliverOutput(
    env,
    { body: frame.payload, size: meta.stats.output_bytes, contentType: "application/pdf", filename: `${stem}.pdf` },
    request.options.output,
    request.baseUrl,
    { accountId: request.accountId, chargeKey: request.chargeKey, operation: "pdf.compress", amountMicros: price },
  );
  if (request.source.file?.kind === "source") await deleteFile(env, request.accountId, request.source.file.id);
  return { ...delivered, returned_original: meta.returned_original, warnings: meta.warnings, stats: meta.stats, billing: { charged_micros: price } };
}
