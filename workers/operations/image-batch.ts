// A batch of images: each item optimized like a single call, a bounded few at a time, with one
// failed item never failing the batch. The route validates and plans; this runs the plan, now
// (sync) or as a job (async), and both answer the same body.
import { z } from "@hono/zod-openapi";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { IMAGE_SOURCE_MAX_BYTES, imageOptionsSchema, type ImageOptions } from "../../contracts/image-options.ts";
import { prices } from "../../contracts/pricing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { problemFromError } from "../../contracts/problems/problem-response.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { itemChargeKey, jobChargeKey } from "../billing/charge-key.ts";
import type { Bindings } from "../env.ts";
import type { Caller } from "../hono-env.ts";
import type { JobProgress } from "../jobs/job-progress.ts";
import type { JobRecord } from "../jobs/job-store.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import type { PlannedOperation } from "./operation.ts";
import { resolveSource, type ResolvedSource } from "../sources/resolve-source.ts";
import { imageResultSchema, optimizeImage, type ImageResult } from "./image-optimize.ts";
import { stashSource } from "./stash-source.ts";
import { assertItemMayStart, LAST_ITEM_START_MS, SYNC_BATCH_DEADLINE_MS } from "./sync-batch-deadline.ts";

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

type BatchBody = z.output<typeof batchBody>;

/** Items in flight at once; the origin bounds its own decoders too, so memory stays flat. */
const ITEM_CONCURRENCY = 4;

const itemResultSchema = z.union([
  imageResultSchema.extend({ ref: z.string(), status: z.literal("ok") }),
  z.object({ ref: z.string(), status: z.literal("failed"), error: problemSchema }),
]);

export const batchResultSchema = z
  .object({
    results: z.array(itemResultSchema).openapi({ description: "In request order; one failed image never fails the batch." }),
    stats: z
      .object({
        images: z.number().int(),
        succeeded: z.number().int(),
        failed: z.number().int(),
        original_bytes: z.number().int().openapi({ description: "Of the images that succeeded" }),
        output_bytes: z.number().int().openapi({ description: "Of the images that succeeded" }),
        ratio: z.number().nullable().openapi({ description: "output_bytes / original_bytes; null when no image succeeded" }),
      })
      .openapi("ImageBatchStats"),
    billing: z.object({ charged_micros: z.number().int() }),
  })
  .openapi("ImageBatchResult");

type BatchItemResult = z.infer<typeof itemResultSchema>;
type BatchResult = z.infer<typeof batchResultSchema>;

const jobItem = z.union([
  z.object({ ref: z.string(), source_file_id: z.string(), options: imageOptionsSchema }),
  z.object({ ref: z.string(), error: problemSchema }),
]);

/** An image.batch job's stored request: sources already in R2, or the problem that stopped one. */
const batchJobRequestSchema = z.object({ items: z.array(jobItem), base_url: z.string() });

/** One planned item: a validated ref, its source as the request gave it, and its merged options. */
interface BatchItem {
  ref: string;
  source: z.infer<typeof sourceSchema>;
  options: ImageOptions;
}

type BatchEnv = Bindings;

/** Runs `task` over every item, at most `limit` at a time, keeping the results in item order. */
function mapBounded<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const run = concurrencyLimit(limit);
  return Promise.all(items.map((item) => run(() => task(item))));
}

function summarize(results: BatchItemResult[]): BatchResult {
  const ok = results.filter((r): r is Extract<BatchItemResult, { status: "ok" }> => r.status === "ok");
  const charged = ok.reduce((sum, r) => sum + r.billing.charged_micros, 0);
  const originalBytes = ok.reduce((sum, r) => sum + r.stats.original_bytes, 0);
  const outputBytes = ok.reduce((sum, r) => sum + r.stats.output_bytes, 0);
  return {
    results,
    stats: {
      images: results.length,
      succeeded: ok.length,
      failed: results.length - ok.length,
      original_bytes: originalBytes,
      output_bytes: outputBytes,
      ratio: originalBytes > 0 ? Math.round((outputBytes / originalBytes) * 10_000) / 10_000 : null,
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

/** Every item is sent under the batch's own id (the origin takes only an id's characters, no ref), so its log names the request the client knows. */
function optimizeItem(env: BatchEnv, batch: { accountId: string; chargeKey: string; baseUrl: string; requestId: string }) {
  return (ref: string, source: ResolvedSource, options: ImageOptions) =>
    optimizeImage(env, {
      accountId: batch.accountId,
      source,
      options,
      chargeKey: itemChargeKey(batch.chargeKey, ref),
      operation: "image.batch",
      baseUrl: batch.baseUrl,
      requestId: batch.requestId,
    });
}

function resolveItemSource(env: BatchEnv, accountId: string, source: BatchItem["source"]): Promise<ResolvedSource> {
  return resolveSource(env, accountId, source, "image", IMAGE_SOURCE_MAX_BYTES);
}

/** The whole batch now, charged under the request's key, within the synchronous batch's deadline (`clock` is Date.now but in tests). */
export async function runBatch(
  env: BatchEnv,
  request: { accountId: string; items: BatchItem[]; chargeKey: string; baseUrl: string; requestId: string },
  clock: () => number = Date.now,
): Promise<BatchResult> {
  const optimize = optimizeItem(env, request);
  const startedAt = clock();
  const results = await mapBounded(request.items, ITEM_CONCURRENCY, (item) =>
    runItem(item.ref, async () => {
      assertItemMayStart(startedAt, clock());
      return optimize(item.ref, await resolveItemSource(env, request.accountId, item.source), item.options);
    }),
  );
  return summarize(results);
}

/**
 * The job's request: sources are fetched and stored now, so a bad one fails its item rather than
 * the job, and the job reads only R2.
 */
async function planBatchJob(
  env: BatchEnv,
  request: { accountId: string; items: BatchItem[]; baseUrl: string },
): Promise<z.infer<typeof batchJobRequestSchema>> {
  const items = await mapBounded(request.items, ITEM_CONCURRENCY, async (item) => {
    try {
      const source = await resolveItemSource(env, request.accountId, item.source);
      return { ref: item.ref, source_file_id: await stashSource(env, request.accountId, source), options: item.options };
    } catch (error) {
      return { ref: item.ref, error: itemProblem(error) };
    }
  });
  return { items, base_url: request.baseUrl };
}

async function countedItem(progress: JobProgress, work: Promise<BatchItemResult>): Promise<BatchItemResult> {
  const result = await work;
  await progress.advance();
  return result;
}

/** Progress counts images: every item that ended, ok or failed, of all the batch's items. */
async function runBatchJob(env: BatchEnv, job: JobRecord, request: z.output<typeof batchJobRequestSchema>, progress: JobProgress): Promise<BatchResult> {
  const optimize = optimizeItem(env, { accountId: job.account_id, chargeKey: jobChargeKey(job.id), baseUrl: request.base_url, requestId: job.id });
  await progress.start(request.items.length);
  const results = await mapBounded(request.items, ITEM_CONCURRENCY, (item) => {
    if ("error" in item) return countedItem(progress, Promise.resolve({ ref: item.ref, status: "failed", error: item.error }));
    return countedItem(
      progress,
      runItem(item.ref, async () => {
        const source = await resolveItemSource(env, job.account_id, { file_id: item.source_file_id });
        return optimize(item.ref, source, item.options);
      }),
    );
  });
  return summarize(results);
}

/** Validates refs and merges per-image options; any mistake here is a 400 for the whole request. */
function planItems(body: BatchBody): BatchItem[] {
  const seen = new Set<string>();
  const issues: Parameters<typeof validationProblem>[0][number][] = [];
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
    // The whole issue, so the shared reader puts an unknown field at its own pointer with its suggestion.
    else for (const issue of parsed.error.issues) issues.push({ ...issue, path: ["per_image_options", ref, ...issue.path] });
  }
  const items = body.images.map((image) => ({ ...image, options: merged.get(image.ref) ?? body.options }));
  if (issues.length > 0) throw validationProblem(issues, "json");
  return items;
}

function batchLimit(caller: Caller, mode: "sync" | "async"): number {
  if (mode === "sync") return BATCH_LIMITS.sync;
  return caller.plan === "free" ? BATCH_LIMITS.asyncFree : BATCH_LIMITS.asyncPro;
}

function planBatch(body: BatchBody, caller: Caller): BatchItem[] {
  const limit = batchLimit(caller, body.mode);
  if (body.images.length > limit) {
    throw new ProblemError(
      "payload_too_large",
      `A ${body.mode} batch takes at most ${limit} images${body.mode === "sync" ? "; use mode: async for more" : ` on the ${caller.plan} plan`}.`,
      { extensions: { max_images: limit } },
    );
  }
  return planItems(body);
}

export const imageBatch = {
  name: "image.batch",
  http: {
    path: "/v1/image/batch",
    tags: ["Images"],
    summary: "Optimize many images, with per-image options and partial failure",
    description: `Up to ${BATCH_LIMITS.sync} images synchronously; up to ${BATCH_LIMITS.asyncPro} with \`mode: async\` (${BATCH_LIMITS.asyncFree} on the free plan). Each \`ok\` image that got smaller costs $0.0008; failed items cost nothing. A synchronous batch answers within ${SYNC_BATCH_DEADLINE_MS / 1000} s: an image that has not started ${LAST_ITEM_START_MS / 1000} s in fails with \`processing_timeout\`, not charged.`,
    resultDescription: "Per-image results in request order",
    problems: ["validation_failed", "insufficient_balance", "payload_too_large", "idempotency_key_reused", "idempotency_conflict"],
  },
  requestSchema: batchBody,
  resultSchema: batchResultSchema,
  input: "plan",
  plan: planBatch,
  balanceCeiling: () => prices.image,
  runSync: (env, work) =>
    runBatch(env, { accountId: work.accountId, items: work.input, chargeKey: work.chargeKey, baseUrl: work.baseUrl, requestId: work.requestId }),
  job: {
    requestSchema: batchJobRequestSchema,
    viewName: "ImageBatchJob",
    progressUnit: "images",
    request: (env, accepted) => planBatchJob(env, { accountId: accepted.accountId, items: accepted.input, baseUrl: accepted.baseUrl }),
    run: (env, { job, request }, progress) => runBatchJob(env, job, request, progress),
  },
} satisfies PlannedOperation<"image.batch", BatchBody, BatchItem[], typeof batchResultSchema, typeof batchJobRequestSchema>;
