import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { requireBalance } from "../billing/charge-once.ts";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { jobAcceptedSchema, modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { IMAGE_SOURCE_MAX_BYTES, imageOptionsSchema } from "../../contracts/image-options.ts";
import { prices } from "../../contracts/pricing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import type { AppEnv, Caller } from "../hono-env.ts";
import { problemFromError } from "../../contracts/problems/problem-response.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { jobChargeKey, type JobRunner } from "../jobs/job-runner.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { imageResultSchema, optimizeImage, type ImageResult } from "../operations/image-optimize.ts";
import { stashSource } from "../operations/stash-source.ts";
import { resolveSource } from "../sources/resolve-source.ts";

export const BATCH_LIMITS = { sync: 10, asyncPro: 250, asyncFree: 25 } as const;
/** Items in flight at once; the origin bounds its own decoders too, so memory stays flat. */
const ITEM_CONCURRENCY = 4;

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

const itemResultSchema = z.union([
  imageResultSchema.extend({ ref: z.string(), status: z.literal("ok") }),
  z.object({ ref: z.string(), status: z.literal("failed"), error: problemSchema }),
]);

const batchResultSchema = z
  .object({
    results: z.array(itemResultSchema).openapi({ description: "In request order; one failed image never fails the batch." }),
    totals: z.object({
      images: z.number().int(),
      succeeded: z.number().int(),
      failed: z.number().int(),
      original_bytes: z.number().int(),
      output_bytes: z.number().int(),
      charged_micros: z.number().int(),
    }),
    billing: z.object({ charged_micros: z.number().int() }),
  })
  .openapi("ImageBatchResult");

type BatchItemResult = z.infer<typeof itemResultSchema>;

const jobItem = z.union([
  z.object({ ref: z.string(), source_file_id: z.string(), options: imageOptionsSchema }),
  z.object({ ref: z.string(), error: problemSchema }),
]);
const jobRequest = z.object({ items: z.array(jobItem), base_url: z.string() });

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
type ImageOptions = z.infer<typeof imageOptionsSchema>;

/** Validates refs and merges per-image options; any mistake here is a 400 for the whole request. */
function planItems(body: BatchBody): { ref: string; source: BatchBody["images"][number]["source"]; options: ImageOptions }[] {
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

/** Runs `task` over every item, at most `limit` at a time, keeping the results in item order. */
function mapBounded<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const run = concurrencyLimit(limit);
  return Promise.all(items.map((item) => run(() => task(item))));
}

function summarize(results: BatchItemResult[]) {
  const ok = results.filter((r): r is Extract<BatchItemResult, { status: "ok" }> => r.status === "ok");
  const charged = ok.reduce((sum, r) => sum + r.billing.charged_micros, 0);
  return {
    results,
    totals: {
      images: results.length,
      succeeded: ok.length,
      failed: results.length - ok.length,
      original_bytes: ok.reduce((sum, r) => sum + r.stats.original_bytes, 0),
      output_bytes: ok.reduce((sum, r) => sum + r.stats.output_bytes, 0),
      charged_micros: charged,
    },
    billing: { charged_micros: charged },
  };
}

/** An item's failure as the problem a single call would have answered. */
function itemProblem(error: unknown): z.infer<typeof problemSchema> {
  if (!(error instanceof ProblemError)) console.error("batch item failed", error);
  return problemFromError(error);
}

async function runItem(ref: string, work: () => Promise<ImageResult>): Promise<BatchItemResult> {
  try {
    return { ref, status: "ok", ...(await work()) };
  } catch (error) {
    return { ref, status: "failed", error: itemProblem(error) };
  }
}

function optimizeItem(env: Bindings, accountId: string, chargeKey: string, baseUrl: string) {
  return (ref: string, source: Awaited<ReturnType<typeof resolveSource>>, options: ImageOptions) =>
    optimizeImage(env, { accountId, source, options, chargeKey: `${chargeKey}:${ref}`, operation: "image.batch", baseUrl });
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
  const baseUrl = new URL(c.req.url).origin;
  const resolve = (source: BatchBody["images"][number]["source"]) =>
    resolveSource(c.env, caller.accountId, source, "image", IMAGE_SOURCE_MAX_BYTES);

  if (body.mode === "async") {
    // Sources are fetched now so a bad one fails its item, not the job; the job reads only R2.
    const planned = await mapBounded(items, ITEM_CONCURRENCY, async (item) => {
      try {
        const source = await resolve(item.source);
        return { ref: item.ref, source_file_id: await stashSource(c.env, caller.accountId, source), options: item.options };
      } catch (error) {
        return { ref: item.ref, error: itemProblem(error) };
      }
    });
    const request: z.infer<typeof jobRequest> = { items: planned, base_url: baseUrl };
    return c.json(await submitJob(c.env, caller, { operation: "image.batch", request, webhook: body.webhook }), 202);
  }

  const optimize = optimizeItem(c.env, caller.accountId, `req:${c.get("requestId")}`, baseUrl);
  const results = await mapBounded(items, ITEM_CONCURRENCY, (item) =>
    runItem(item.ref, async () => optimize(item.ref, await resolve(item.source), item.options)),
  );
  return c.json(summarize(results), 200);
};

export const runJob: JobRunner = async (env, job) => {
  const request = jobRequest.parse(job.request);
  const optimize = optimizeItem(env, job.account_id, jobChargeKey(job.id), request.base_url);
  const results = await mapBounded(request.items, ITEM_CONCURRENCY, async (item): Promise<BatchItemResult> => {
    if ("error" in item) return { ref: item.ref, status: "failed", error: item.error };
    return runItem(item.ref, async () => {
      const source = await resolveSource(env, job.account_id, { file_id: item.source_file_id }, "image", IMAGE_SOURCE_MAX_BYTES);
      return optimize(item.ref, source, item.options);
    });
  });
  return summarize(results);
};
