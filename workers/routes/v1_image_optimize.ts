import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { requestChargeKey } from "../billing/charge-key.ts";
import { requireBalance } from "../billing/charge-once.ts";
import { jobAcceptedSchema, modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { IMAGE_SOURCE_MAX_BYTES, imageOptionsSchema } from "../../contracts/image-options.ts";
import { prices } from "../../contracts/pricing.ts";
import type { AppEnv } from "../hono-env.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { imageResultSchema, optimizeImage } from "../operations/image-optimize.ts";
import { optimizeJobRequestSchema } from "../operations/image-optimize-job.ts";
import { stashSource } from "../operations/stash-source.ts";
import { resolveSource } from "../sources/resolve-source.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";

const optimizeBody = z
  .object({
    source: sourceSchema,
    options: imageOptionsSchema.prefault({}),
    mode: modeSchema,
    webhook: webhookTargetSchema.optional(),
  })
  .strict()
  .openapi("ImageOptimizeRequest", {
    example: { source: { url: "https://images.example.com/photo.jpg" }, options: { width: 1600, format: "webp", quality: 76 } },
  });

export const route = createRoute({
  method: "post",
  path: "/v1/image/optimize",
  tags: ["Images"],
  summary: "Resize, convert and compress one image",
  description:
    "Auto-orients (EXIF), converts colour to sRGB, resizes, strips metadata and encodes. $0.0008, or $0 when the output is not smaller than the source (it is still returned). `mode: async` answers 202 with a job.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: optimizeBody } } } },
  responses: {
    200: jsonContent(imageResultSchema, "The optimized image"),
    202: jsonContent(jobAcceptedSchema, "Accepted as an async job"),
    ...problemResponses(
      "validation_failed",
      "insufficient_balance",
      "payload_too_large",
      "unsupported_media_type",
      "unprocessable",
      "not_found",
      "gone",
      "upload_incomplete",
      "idempotency_key_reused",
      "idempotency_conflict",
      "origin_unavailable",
    ),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const body = c.req.valid("json");
  if (body.webhook) checkWebhookUrl(c.env, body.webhook.url, "/webhook/url");
  await requireBalance(c.env.DB, caller.accountId, prices.image);
  const source = await resolveSource(c.env, caller.accountId, body.source, "image", IMAGE_SOURCE_MAX_BYTES);
  const baseUrl = publicBaseUrl(c.env, c.req.url);
  if (body.mode === "async") {
    const request: z.infer<typeof optimizeJobRequestSchema> = {
      source_file_id: await stashSource(c.env, caller.accountId, source),
      options: body.options,
      base_url: baseUrl,
    };
    return c.json(await submitJob(c.env, caller, { operation: "image.optimize", request, webhook: body.webhook }), 202);
  }
  const result = await optimizeImage(c.env, {
    accountId: caller.accountId,
    source,
    options: body.options,
    chargeKey: requestChargeKey(c.get("requestId")),
    operation: "image.optimize",
    baseUrl,
    requestId: c.get("requestId"),
  });
  return c.json(result, 200);
};
