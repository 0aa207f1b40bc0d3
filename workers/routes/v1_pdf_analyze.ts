import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { requestChargeKey } from "../billing/charge-key.ts";
import { sourceSchema, syncOnlyModeSchema } from "../../contracts/envelope.ts";
import { pdfAnalyzeOptionsSchema } from "../../contracts/pdf-options.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { analyzePdf, pdfAnalysisSchema } from "../operations/pdf.ts";
import { resolveSource } from "../sources/resolve-source.ts";

const analyzeBody = z
  .object({ source: sourceSchema, options: pdfAnalyzeOptionsSchema.prefault({}), mode: syncOnlyModeSchema("PDF analysis") })
  .strict()
  .openapi("PdfAnalyzeRequest", { example: { source: { file_id: "file_8Hq2Lm4Zt0Rb7Xc1Vd9Y" } } });

export const route = createRoute({
  method: "post",
  path: "/v1/pdf/analyze",
  tags: ["PDF"],
  summary: "What is in a PDF and what each profile would make of it (free)",
  description:
    "Composition by category, flags (encrypted, signed, PDF/A, forms, JavaScript, tagged), every image with its placed DPI and estimated JPEG quality, fonts, and per-profile projections of output size and quality risk. Always $0.",
  security: bearerSecurity,
  middleware: [requireScope("pdf")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: analyzeBody } } } },
  responses: {
    200: jsonContent(pdfAnalysisSchema, "The analysis"),
    ...problemResponses("validation_failed", "payload_too_large", "unsupported_media_type", "unprocessable", "not_found", "gone", "upload_incomplete", "origin_unavailable"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const body = c.req.valid("json");
  const source = await resolveSource(c.env, caller.accountId, body.source, "pdf", PDF_MAX_BYTES);
  const analysis = await analyzePdf(c.env, { accountId: caller.accountId, source, options: body.options, chargeKey: requestChargeKey(c.get("requestId")), requestId: c.get("requestId") });
  return c.json(analysis, 200);
};
