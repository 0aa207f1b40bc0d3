import { z } from "@hono/zod-openapi";
import { billingSchema } from "../../contracts/envelope.ts";
import { IMAGE_OUTPUT_FORMATS, type ImageOptions, type ImageOutputFormat } from "../../contracts/image-options.ts";
import { imagePlaceholderSchema } from "../../contracts/origin/image-placeholder.ts";
import { imageProcessEndpoint, imageStatsSchema } from "../../contracts/origin/image-process.ts";
import { imagePrice } from "../../contracts/pricing.ts";
import type { Bindings } from "../env.ts";
import { releaseSource } from "../files/file-lifecycle.ts";
import { originCompute } from "../origin/origin-client.ts";
import { sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";

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

type ImageEnv = Pick<Bindings, "DB" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

function outputName(source: ResolvedSource, format: ImageOutputFormat): string {
  const stem = (source.filename ?? "image").replace(/\.[^.]*$/, "") || "image";
  return `${stem}.${format === "jpeg" ? "jpg" : format}`;
}

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
    { body: frame.payload, size: meta.stats.output_bytes, contentType: CONTENT_TYPES[meta.format], filename: outputName(request.source, meta.format) },
    request.options.output,
    request.baseUrl,
    { accountId: request.accountId, chargeKey: request.chargeKey, operation: request.operation, amountMicros: price },
  );
  await releaseSource(env, request.accountId, request.source.file, request.options.keep_source);
  const placeholder = meta.placeholder === null ? {} : { placeholder: meta.placeholder };
  return { ...delivered, format: meta.format, width: meta.width, height: meta.height, stats: meta.stats, ...placeholder, billing: { charged_micros: price } };
}
