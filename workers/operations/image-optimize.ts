// POST /v1/image/optimize: one image through the origin's pipeline, stored and billed.
import { z } from "@hono/zod-openapi";
import { billingSchema, modeSchema, sourceSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { IMAGE_OUTPUT_FORMATS, imageOptionsSchema, imageSourceMaxBytes, type ImageOptions } from "../../contracts/image-options.ts";
import { imagePlaceholderSchema } from "../../contracts/origin/image-placeholder.ts";
import { imageProcessEndpoint, imageStatsSchema } from "../../contracts/origin/image-process.ts";
import { imagePrice, prices } from "../../contracts/pricing.ts";
import { optimizedImageName } from "../../contracts/derived-file-name.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import type { Bindings } from "../env.ts";
import { releaseSource } from "../files/file-lifecycle.ts";
import { originCompute } from "../origin/origin-client.ts";
import { resolveSource, sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";
import type { SourceOperation } from "./operation.ts";
import { stashedSourceRequest } from "./stash-source.ts";

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

const CONTENT_TYPES = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", png: "image/png" } as const;

export const imageResultSchema = deliveredOutputSchema
  .extend({
    format: z.enum(IMAGE_OUTPUT_FORMATS),
    width: z.number().int().openapi({ example: 1600 }),
    height: z.number().int().openapi({ example: 1067 }),
    stats: imageStatsSchema,
    placeholder: imagePlaceholderSchema.optional().openapi({ description: "With `options.placeholder`: the output's placeholder (of its first frame for an animation)" }),
    billing: billingSchema,
  })
  .openapi("ImageResult");

export type ImageResult = z.infer<typeof imageResultSchema>;

type ImageEnv = Pick<Bindings, "DB" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "FILES" | "SIGNING_SECRET" | "PUBLIC_BASE_URL" | "ORIGIN_URL" | "ORIGIN_SECRET" | "CF_ZONE_ID" | "CF_API_TOKEN" | "CF_API_BASE_URL">;

/**
 * One image through the origin, stored and billed. The sync route, each batch item and the job
 * runner all come through here, each with its own charge key, so a retry never charges twice.
 * An output no smaller than its source is still returned, at $0.
 */
export async function optimizeImage(
  env: ImageEnv,
  request: {
    accountId: string;
    source: ResolvedSource;
    options: ImageOptions;
    chargeKey: string;
    operation: "image.optimize" | "image.batch";
    baseUrl: string;
    /** Sent to the origin so its log names the request (or job) the client knows. */
    requestId?: string;
  },
): Promise<ImageResult> {
  const frame = await originCompute(env, imageProcessEndpoint, {
    body: await sourceBody(request.source),
    options: request.options,
    requestId: request.requestId,
    accountId: request.accountId,
  });
  const meta = frame.meta;
  const price = imagePrice({ originalBytes: meta.stats.original_bytes, outputBytes: meta.stats.output_bytes });
  const delivered = await deliverOutput(
    env,
    { body: frame.payload, size: meta.stats.output_bytes, contentType: CONTENT_TYPES[meta.format], filename: optimizedImageName(request.source.filename, meta.format) },
    request.options.output,
    request.baseUrl,
    { accountId: request.accountId, chargeKey: request.chargeKey, operation: request.operation, amountMicros: price },
  );
  await releaseSource(env, request.accountId, request.source.file, request.options.keep_source);
  const placeholder = meta.placeholder === null ? {} : { placeholder: meta.placeholder };
  return { ...delivered, format: meta.format, width: meta.width, height: meta.height, stats: meta.stats, ...placeholder, billing: { charged_micros: price } };
}

/** An image.optimize job's stored request: its source already in R2, so the job reads only R2. */
const optimizeJobRequestSchema = z.object({ source_file_id: z.string(), options: imageOptionsSchema, base_url: z.string() });

export const imageOptimize = {
  name: "image.optimize",
  http: {
    path: "/v1/image/optimize",
    tags: ["Images"],
    summary: "Resize, convert and compress one image",
    description:
      "Auto-orients (EXIF), converts colour to sRGB, resizes, strips metadata and encodes. $0.0008, or $0 when the output is not smaller than the source (it is still returned). `mode: async` answers 202 with a job.",
    resultDescription: "The optimized image",
    problems: [
      "validation_failed",
      "insufficient_balance",
      "payload_too_large",
      "unsupported_media_type",
      "unprocessable",
      "page_out_of_range",
      "drawing_too_complex",
      "not_found",
      "gone",
      "upload_incomplete",
      "idempotency_key_reused",
      "idempotency_conflict",
      "origin_unavailable",
    ],
  },
  requestSchema: optimizeBody,
  resultSchema: imageResultSchema,
  input: "source",
  expect: "image",
  // A PDF, made an image one page at a time, keeps the PDF endpoints' limit.
  maxBytes: imageSourceMaxBytes,
  balanceCeiling: { fromBody: () => prices.image },
  runSync: (env, work) =>
    optimizeImage(env, {
      accountId: work.accountId,
      source: work.input.source,
      options: work.input.body.options,
      chargeKey: work.chargeKey,
      operation: "image.optimize",
      baseUrl: work.baseUrl,
      requestId: work.requestId,
    }),
  job: {
    requestSchema: optimizeJobRequestSchema,
    viewName: "ImageOptimizeJob",
    progressUnit: "stages",
    // Called, not passed: a generic function here keeps eraseSourceOperation from inferring this module's types.
    request: (env, accepted) => stashedSourceRequest(env, accepted),
    /** Two stages: the stored source read, then the origin's work with its output stored and billed. */
    async run(env, { job, request }, progress) {
      await progress.start(2);
      const source = await resolveSource(env, job.account_id, { file_id: request.source_file_id }, "image", imageSourceMaxBytes);
      await progress.advance();
      return optimizeImage(env, {
        accountId: job.account_id,
        source,
        options: request.options,
        chargeKey: jobChargeKey(job.id),
        operation: "image.optimize",
        baseUrl: request.base_url,
        requestId: job.id,
      });
    },
  },
} satisfies SourceOperation<"image.optimize", z.output<typeof optimizeBody>, typeof imageResultSchema, typeof optimizeJobRequestSchema>;
