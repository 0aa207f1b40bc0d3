// POST /v1/pdf/compress: a PDF's images resampled to where they are placed, through the origin.
import { z } from "@hono/zod-openapi";
import { billingSchema, modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { pdfCompressEndpoint, pdfCompressReplySchema } from "../../contracts/origin/pdf-compress.ts";
import { PDF_PROFILE_DESCRIPTION, pdfCompressOptionsSchema, type PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { pdfCompressCeiling, pdfCompressPrice } from "../../contracts/pricing.ts";
import { compressedPdfName } from "../../contracts/derived-file-name.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import type { Bindings } from "../env.ts";
import { releaseSource } from "../files/file-lifecycle.ts";
import { originCompute } from "../origin/origin-client.ts";
import { resolveSource, sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";
import type { SourceOperation } from "./operation.ts";
import { stashedSourceRequest } from "./stash-source.ts";

/** Inputs at or above this run as a job even when the request asked for sync. */
export const PDF_SYNC_MAX_BYTES = 10 * 1024 * 1024;

const compressBody = z
  .object({
    source: sourceSchema,
    options: pdfCompressOptionsSchema.prefault({}),
    mode: modeSchema,
    webhook: webhookTargetSchema.optional(),
  })
  .strict()
  .openapi("PdfCompressRequest", { example: { source: { file_id: "file_8Hq2Lm4Zt0Rb7Xc1Vd9Y" }, options: { profile: "ebook" } } });

export const pdfCompressResultSchema = deliveredOutputSchema
  .extend({ ...pdfCompressReplySchema.shape, billing: billingSchema })
  .openapi("PdfCompressResult");

export type PdfCompressResult = z.infer<typeof pdfCompressResultSchema>;

type PdfEnv = Pick<Bindings, "DB" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "FILES" | "SIGNING_SECRET" | "PUBLIC_BASE_URL" | "ORIGIN_URL" | "ORIGIN_SECRET" | "CF_ZONE_ID" | "CF_API_TOKEN" | "CF_API_BASE_URL">;

/**
 * Compresses through the origin, stores the output and bills by the input's size tier. When the
 * origin had to return the original (not smaller, or unsound), the caller still gets it, at $0.
 */
async function compressPdf(
  env: PdfEnv,
  request: { accountId: string; source: ResolvedSource; options: PdfCompressOptions; chargeKey: string; baseUrl: string; requestId?: string },
): Promise<PdfCompressResult> {
  const frame = await originCompute(env, pdfCompressEndpoint, {
    body: await sourceBody(request.source),
    options: request.options,
    requestId: request.requestId,
    accountId: request.accountId,
  });
  const meta = frame.meta;
  const price = pdfCompressPrice({ inputBytes: request.source.size, madeSmaller: !meta.returned_original, verifyQuality: request.options.verify_quality });
  const delivered = await deliverOutput(
    env,
    { body: frame.payload, size: meta.stats.output_bytes, contentType: "application/pdf", filename: compressedPdfName(request.source.filename) },
    request.options.output,
    request.baseUrl,
    { accountId: request.accountId, chargeKey: request.chargeKey, operation: "pdf.compress", amountMicros: price },
  );
  await releaseSource(env, request.accountId, request.source.file, false);
  return { ...delivered, returned_original: meta.returned_original, warnings: meta.warnings, stats: meta.stats, billing: { charged_micros: price } };
}

/** A pdf.compress job's stored request: its source already in R2, so the job reads only R2. */
const pdfCompressJobRequestSchema = z.object({ source_file_id: z.string(), options: pdfCompressOptionsSchema, base_url: z.string() });

export const pdfCompress = {
  name: "pdf.compress",
  http: {
    path: "/v1/pdf/compress",
    tags: ["PDF"],
    summary: "Shrink a PDF by resampling each image to the resolution it is placed at",
    description: `Images are resampled to their placed size times the profile's DPI and re-encoded (baseline JPEG for continuous tone, lossless where that is smaller); forms, links and page geometry are kept and the output is reopened and checked before it is returned. Signed and PDF/A inputs are refused unless allowed; encrypted inputs stay encrypted. Synchronous under ${PDF_SYNC_MAX_BYTES / 1024 / 1024} MB, otherwise (or with \`mode: async\`) a job (202). $0.02 up to 25 MB, $0.04 up to 200 MB, plus $0.005 with \`verify_quality\`; $0 when the PDF could not be made smaller (the original comes back). Profiles: ${PDF_PROFILE_DESCRIPTION}`,
    resultDescription: "The compressed PDF",
    problems: ["validation_failed", "insufficient_balance", "payload_too_large", "unsupported_media_type", "unprocessable", "not_found", "gone", "upload_incomplete", "idempotency_key_reused", "idempotency_conflict", "origin_unavailable"],
  },
  requestSchema: compressBody,
  resultSchema: pdfCompressResultSchema,
  input: "source",
  expect: "pdf",
  maxBytes: PDF_MAX_BYTES,
  balanceCeiling: { fromSource: ({ body, source }) => pdfCompressCeiling(source.size, body.options.verify_quality) },
  runSync: (env, work) =>
    compressPdf(env, {
      accountId: work.accountId,
      source: work.input.source,
      options: work.input.body.options,
      chargeKey: work.chargeKey,
      baseUrl: work.baseUrl,
      requestId: work.requestId,
    }),
  job: {
    requestSchema: pdfCompressJobRequestSchema,
    viewName: "PdfCompressJob",
    progressUnit: "stages",
    forcedBy: ({ source }) => source.size >= PDF_SYNC_MAX_BYTES,
    request: stashedSourceRequest,
    /**
     * Two stages: the stored source read, then the origin's compression with its output stored and
     * billed. The origin answers a compress once, with the whole result, so progress inside that
     * stage (pages or images done) is not measurable from here.
     */
    async run(env, { job, request }, progress) {
      await progress.start(2);
      const source = await resolveSource(env, job.account_id, { file_id: request.source_file_id }, "pdf", PDF_MAX_BYTES);
      await progress.advance();
      return compressPdf(env, {
        accountId: job.account_id,
        source,
        options: request.options,
        chargeKey: jobChargeKey(job.id),
        baseUrl: request.base_url,
        requestId: job.id,
      });
    },
  },
} satisfies SourceOperation<"pdf.compress", z.output<typeof compressBody>, typeof pdfCompressResultSchema, typeof pdfCompressJobRequestSchema>;
