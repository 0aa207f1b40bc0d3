import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { requestChargeKey } from "../billing/charge-key.ts";
import { requireBalance } from "../billing/charge-once.ts";
import { jobAcceptedSchema, modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { PDF_PROFILE_DESCRIPTION, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { pdfCompressCeiling } from "../../contracts/pricing.ts";
import type { AppEnv } from "../hono-env.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { compressPdf, pdfCompressResultSchema } from "../operations/pdf.ts";
import { pdfCompressJobRequestSchema } from "../operations/pdf-compress-job.ts";
import { stashSource } from "../operations/stash-source.ts";
import { resolveSource } from "../sources/resolve-source.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";

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


export const route = createRoute({
  method: "post",
  path: "/v1/pdf/compress",
  tags: ["PDF"],
  summary: "Shrink a PDF by resampling each image to the resolution it is placed at",
  description: `Images are resampled to their placed size times the profile's DPI and re-encoded (baseline JPEG for continuous tone, lossless where that is smaller); forms, links and page geometry are kept and the output is reopened and checked before it is returned. Signed and PDF/A inputs are refused unless allowed; encrypted inputs stay encrypted. Synchronous under ${PDF_SYNC_MAX_BYTES / 1024 / 1024} MB, otherwise (or with \`mode: async\`) a job (202). $0.02 up to 25 MB, $0.04 up to 200 MB, plus $0.005 with \`verify_quality\`; $0 when the PDF could not be made smaller (the original comes back). Profiles: ${PDF_PROFILE_DESCRIPTION}`,
  security: bearerSecurity,
  middleware: [requireScope("pdf")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: compressBody } } } },
  responses: {
    200: jsonContent(pdfCompressResultSchema, "The compressed PDF"),
    202: jsonContent(jobAcceptedSchema, "Accepted as an async job"),
    ...problemResponses("validation_failed", "insufficient_balance", "payload_too_large", "unsupported_media_type", "unprocessable", "not_found", "gone", "upload_incomplete", "idempotency_key_reused", "idempotency_conflict", "origin_unavailable"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const body = c.req.valid("json");
  if (body.webhook) checkWebhookUrl(c.env, body.webhook.url, "/webhook/url");
  const source = await resolveSource(c.env, caller.accountId, body.source, "pdf", PDF_MAX_BYTES);
  await requireBalance(c.env.DB, caller.accountId, pdfCompressCeiling(source.size, body.options.verify_quality));
  const baseUrl = publicBaseUrl(c.env, c.req.url);
  if (body.mode === "async" || source.size >= PDF_SYNC_MAX_BYTES) {
    const request: z.infer<typeof pdfCompressJobRequestSchema> = {
      source_file_id: await stashSource(c.env, caller.accountId, source),
      options: body.options,
      base_url: baseUrl,
    };
    return c.json(await submitJob(c.env, caller, { operation: "pdf.compress", request, webhook: body.webhook }), 202);
  }
  const result = await compressPdf(c.env, { accountId: caller.accountId, source, options: body.options, chargeKey: requestChargeKey(c.get("requestId")), baseUrl, requestId: c.get("requestId") });
  return c.json(result, 200);
};
