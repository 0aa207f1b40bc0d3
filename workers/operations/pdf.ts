import { z } from "@hono/zod-openapi";
import { chargeOnce } from "../billing/charge-once.ts";
import { billingSchema } from "../../contracts/envelope.ts";
import { pdfAnalyzeEndpoint, pdfAnalyzeReplySchema } from "../../contracts/origin/pdf-analyze.ts";
import { pdfCompressEndpoint, pdfCompressReplySchema } from "../../contracts/origin/pdf-compress.ts";
import type { PdfAnalyzeOptions, PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { pdfCompressPrice } from "../../contracts/pricing.ts";
import type { Bindings } from "../env.ts";
import { releaseSource } from "../files/file-lifecycle.ts";
import { originCompute } from "../origin/origin-client.ts";
import { sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";

export const pdfAnalysisSchema = pdfAnalyzeReplySchema.extend({ billing: billingSchema }).openapi("PdfAnalysis");

export type PdfAnalysis = z.infer<typeof pdfAnalysisSchema>;

export const pdfCompressResultSchema = deliveredOutputSchema
  .extend({ ...pdfCompressReplySchema.shape, billing: billingSchema })
  .openapi("PdfCompressResult");

export type PdfCompressResult = z.infer<typeof pdfCompressResultSchema>;

type PdfEnv = Pick<Bindings, "DB" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

/** Free, but recorded in the ledger at $0 so that usage counts it. */
export async function analyzePdf(
  env: PdfEnv,
  request: { accountId: string; source: ResolvedSource; options: PdfAnalyzeOptions; chargeKey: string; requestId?: string },
): Promise<PdfAnalysis> {
  const frame = await originCompute(env, pdfAnalyzeEndpoint, {
    body: await sourceBody(request.source),
    options: request.options,
    requestId: request.requestId,
    accountId: request.accountId,
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
  request: { accountId: string; source: ResolvedSource; options: PdfCompressOptions; chargeKey: string; baseUrl: string; requestId?: string },
): Promise<PdfCompressResult> {
  const frame = await originCompute(env, pdfCompressEndpoint, {
    body: await sourceBody(request.source),
    options: request.options,
    requestId: request.requestId,
    accountId: request.accountId,
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
  await releaseSource(env, request.accountId, request.source.file, false);
  return { ...delivered, returned_original: meta.returned_original, warnings: meta.warnings, stats: meta.stats, billing: { charged_micros: price } };
}
