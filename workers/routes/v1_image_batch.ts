import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { jobAcceptedSchema, modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { imageOptionsSchema, type ImageOptions } from "../../contracts/image-options.ts";
import { prices } from "../../contracts/pricing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { requestChargeKey } from "../billing/charge-key.ts";
import { requireBalance } from "../billing/charge-once.ts";
import type { AppEnv, Caller } from "../hono-env.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { batchResultSchema, planBatchJob, runBatch, type BatchItem } from "../operations/image-batch.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";

export const BATCH_LIMITS = { sync: 10, asyncPro: 250, asyncFree: 25 } as const;

const refSchema = z.string().min(1).max(128).openapi({ example: "hero" });

const batchBody = z
  .object({
    images: z.array(z.object({ ref: refSchema, source: sourceSchema }).strict()).min(1).max(BATCH_LIMITS.asyncPro),
    options: imageOptionsSchema.prefault({}),
    per_image_options: z
      .record(refSchema, z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: "Options by ref, merged over `options` and validated like them.", example: { hero: { width: 2400 } } }),
    mode: modeSchema,
    webhook: webhookTargetSchema.optional(),
  })
  .strict()
  .openapi("ImageBatchRequest", {
    example: {
      images: [
        { ref: "hero", source: { url: "https://images.example.com/hero.jpg" } },
        { ref: "thumb", source: { file_id: "file_8Hq2Lm4Zt0Rb7Xc1Vd9Y" } },
      ],
      options: { width: 1200, format: "auto" },
      per_image_options: { thumb: { width: 200 } },
    },
  });

export const route = createRoute({
  method: "post",
  path: "/v1/image/batch",
  tags: ["Images"],
  summary: "Optimize many images, with per-image options and partial failure",
  description: `Up to ${BATCH_LIMITS.sync} images synchronously; up to ${BATCH_LIMITS.asyncPro} with \`mode: async\` (${BATCH_LIMITS.asyncFree} on the free plan). Each \`ok\` image that got smaller costs $0.0008; failed items cost nothing.`,
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: batchBody } } } },
  responses: {
    200: jsonContent(batchResultSchema, "Per-image results in request order"),
    202: jsonContent(jobAcceptedSchema, "Accepted as an async job"),
    ...problemResponses("validation_failed", "insufficient_balance", "payload_too_large", "idempotency_key_reused", "idempotency_conflict"),
  },
});

type BatchBody = z.infer<typeof batchBody>;

/** Validates refs and merges per-image options; any mistake here is a 400 for the whole request. */
function planItems(body: BatchBody): BatchItem[] {
  const seen = new Set<string>();
  const issues: { path: PropertyKey[]; message: string }[] = [];
  body.images.forEach((image, i) => {
    if (seen.has(image.ref)) issues.push({ path: ["images", i, "ref"], message: `Duplicate ref \`${image.ref}\`; refs must be unique.` });
    seen.add(image.ref);
  });
  for (const ref of Object.keys(body.per_image_options ?? {})) {
    if (!seen.has(ref)) issues.push({ path: ["per_image_options", ref], message: `No image has ref \`${ref}\`.` });
  }
  const merged = new Map<string, ImageOptions>();
  for (const [ref, override] of Object.entries(body.per_image_options ?? {})) {
    const parsed = imageOptionsSchema.safeParse({ ...body.options, ...override });
    if (parsed.success) merged.set(ref, parsed.data);
    else for (const issue of parsed.error.issues) issues.push({ path: ["per_image_options", ref, ...issue.path], message: issue.message });
  }
  const items = body.images.map((image) => ({ ...image, options: merged.get(image.ref) ?? body.options }));
  if (issues.length > 0) throw validationProblem(issues, "json");
  return items;
}

function batchLimit(caller: Caller, mode: "sync" | "async"): number {
  if (mode === "sync") return BATCH_LIMITS.sync;
  return caller.plan === "free" ? BATCH_LIMITS.asyncFree : BATCH_LIMITS.asyncPro;
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const body = c.req.valid("json");
  if (body.webhook) checkWebhookUrl(c.env, body.webhook.url, "/webhook/url");
  const limit = batchLimit(caller, body.mode);
  if (body.images.length > limit) {
    throw new ProblemError(
      "payload_too_large",
      `A ${body.mode} batch takes at most ${limit} images${body.mode === "sync" ? "; use mode: async for more" : ` on the ${caller.plan} plan`}.`,
      { extensions: { max_images: limit } },
    );
  }
  const items = planItems(body);
  await requireBalance(c.env.DB, caller.accountId, prices.image);
  const baseUrl = publicBaseUrl(c.env, c.req.url);
  if (body.mode === "async") {
    const request = await planBatchJob(c.env, { accountId: caller.accountId, items, baseUrl });
    return c.json(await submitJob(c.env, caller, { operation: "image.batch", request, webhook: body.webhook }), 202);
  }
  const requestId = c.get("requestId");
  return c.json(await runBatch(c.env, { accountId: caller.accountId, items, chargeKey: requestChargeKey(requestId), baseUrl, requestId }), 200);
};
