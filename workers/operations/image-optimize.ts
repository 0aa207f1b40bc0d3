import { z } from "@hono/zod-openapi";
import { billingSchema } from "../../contracts/envelope.ts";
import type { ImageOptions } from "../../contracts/image-options.ts";
import { imagePrice } from "../../contracts/pricing.ts";
import type { Bindings } from "../env.ts";
import { deleteFile } from "../files/file-store.ts";
import { originCompute } from "../origin/origin-client.ts";
import { sourceBody, type ResolvedSource } from "../sources/resolve-source.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";

const IMAGE_PROCESS_PATH = "/image/process";
const CONTENT_TYPES = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", png: "image/png" } as const;

export const imageStatsSchema = z
  .object({
    original_bytes: z.number().int(),
    output_bytes: z.number().int(),
    ratio: z.number().openapi({ description: "output_bytes / original_bytes", example: 0.182 }),
    original_width: z.number().int(),
    original_height: z.number().int(),
    original_format: z.string().openapi({ example: "jpeg" }),
    quality: z.number().int().nullable().openapi({ description: "Encoder quality used; null for lossless output" }),
    lossless: z.boolean(),
    encodes: z.number().int().openapi({ description: "Encodes made (auto candidates and the max_bytes search included)" }),
    orientation_applied: z.number().int().nullable().openapi({ description: "The EXIF orientation applied to the pixels" }),
    first_frame_only: z.boolean().openapi({ description: "The source had several frames or pages; only the first was used" }),
    format_chosen_by_auto: z.boolean(),
    candidates: z
      .array(z.object({ format: z.string(), quality: z.number().int().nullable(), bytes: z.number().int() }).passthrough())
      .nullable(),
  })
  .passthrough()
  .openapi("ImageStats");

export const imageResultSchema = deliveredOutputSchema
  .extend({
    format: z.enum(["jpeg", "webp", "avif", "png"]),
    width: z.number().int().openapi({ example: 1600 }),
    height: z.number().int().openapi({ example: 1067 }),
    stats: imageStatsSchema,
    billing: billingSchema,
  })
  .openapi("ImageResult");

export type ImageResult = z.infer<typeof imageResultSchema>;

interface OriginImageMeta {
  format: keyof typeof CONTENT_TYPES;
  width: number;
  height: number;
  stats: z.infer<typeof imageStatsSchema>;
}

type ImageEnv = Pick<Bindings, "DB" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

function outputName(source: ResolvedSource, format: OriginImageMeta["format"]): string {
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
  },
): Promise<ImageResult> {
  const frame = await originCompute<OriginImageMeta>(env, IMAGE_PROCESS_PATH, {
    body: await sourceBody(request.source),
    options: request.options,
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
  if (request.source.file?.kind === "source" && !request.options.keep_source) {
    await deleteFile(env, request.accountId, request.source.file.id);
  }
  return { ...delivered, format: meta.format, width: meta.width, height: meta.height, stats: meta.stats, billing: { charged_micros: price } };
}
