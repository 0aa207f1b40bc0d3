// POST /v1/pdf/analyze: what is in a PDF and what each profile would make of it. Free, sync only.
import { z } from "@hono/zod-openapi";
import { billingSchema, sourceSchema, syncOnlyModeSchema } from "../../contracts/envelope.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { pdfAnalyzeEndpoint, pdfAnalyzeReplySchema } from "../../contracts/origin/pdf-analyze.ts";
import { pdfAnalyzeOptionsSchema, type PdfAnalyzeOptions } from "../../contracts/pdf-options.ts";
import { prices } from "../../contracts/pricing.ts";
import { chargeOnce } from "../billing/charge-once.ts";
import type { Bindings } from "../env.ts";
import { originCompute } from "../origin/origin-client.ts";
import { sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import type { SourceOperation } from "./operation.ts";

const analyzeBody = z
  .object({ source: sourceSchema, options: pdfAnalyzeOptionsSchema.prefault({}), mode: syncOnlyModeSchema("PDF analysis") })
  .strict()
  .openapi("PdfAnalyzeRequest", { example: { source: { file_id: "file_8Hq2Lm4Zt0Rb7Xc1Vd9Y" } } });

export const pdfAnalysisSchema = pdfAnalyzeReplySchema.extend({ billing: billingSchema }).openapi("PdfAnalysis");

export type PdfAnalysis = z.infer<typeof pdfAnalysisSchema>;

type PdfEnv = Pick<Bindings, "DB" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

/** Free, but recorded in the ledger at $0 so that usage counts it. */
async function analyzePdf(
  env: PdfEnv,
  request: { accountId: string; source: ResolvedSource; options: PdfAnalyzeOptions; chargeKey: string; requestId?: string },
): Promise<PdfAnalysis> {
  const frame = await originCompute(env, pdfAnalyzeEndpoint, {
    body: await sourceBody(request.source),
    options: request.options,
    requestId: request.requestId,
    accountId: request.accountId,
  });
  // An analysis has no output bytes, but the reply's length and digest are checked only at the
  // payload's end: read it to there, so a damaged analysis is refused like any damaged reply.
  await new Response(frame.payload).arrayBuffer();
  await chargeOnce(env, { accountId: request.accountId, chargeKey: request.chargeKey, operation: "pdf.analyze", amountMicros: prices.pdfAnalyze });
  return { ...frame.meta, billing: { charged_micros: prices.pdfAnalyze } };
}

export const pdfAnalyze = {
  name: "pdf.analyze",
  http: {
    path: "/v1/pdf/analyze",
    tags: ["PDF"],
    summary: "What is in a PDF and what each profile would make of it (free)",
    description:
      "Composition by category, flags (encrypted, signed, PDF/A, forms, JavaScript, tagged), every image with its placed DPI, each drawing's box on its page in points (`placements`) and estimated JPEG quality, fonts, and per-profile projections of output size and quality risk. Always $0.",
    resultDescription: "The analysis",
    problems: ["validation_failed", "payload_too_large", "unsupported_media_type", "unprocessable", "not_found", "gone", "upload_incomplete", "origin_unavailable"],
  },
  requestSchema: analyzeBody,
  resultSchema: pdfAnalysisSchema,
  input: "source",
  expect: "pdf",
  maxBytes: PDF_MAX_BYTES,
  balanceCeiling: { fromBody: () => prices.pdfAnalyze },
  runSync: (env, work) =>
    analyzePdf(env, { accountId: work.accountId, source: work.input.source, options: work.input.body.options, chargeKey: work.chargeKey, requestId: work.requestId }),
  job: null,
} satisfies SourceOperation<"pdf.analyze", z.output<typeof analyzeBody>, typeof pdfAnalysisSchema, z.ZodNever>;
