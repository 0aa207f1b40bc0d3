import { z } from "@hono/zod-openapi";
import { IMAGE_SOURCE_MAX_BYTES, imageOptionsSchema } from "../../contracts/image-options.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import type { JobRunner } from "../jobs/job-runner.ts";
import { resolveSource } from "../sources/resolve-source.ts";
import { optimizeImage } from "./image-optimize.ts";

/** An image.optimize job's stored request: its source already in R2, so the job reads only R2. */
export const optimizeJobRequestSchema = z.object({ source_file_id: z.string(), options: imageOptionsSchema, base_url: z.string() });

/** Two stages: the stored source read, then the origin's work with its output stored and billed. */
export const runOptimizeJob: JobRunner<"image.optimize"> = async (env, job, progress) => {
  const request = optimizeJobRequestSchema.parse(job.request);
  await progress.start(2);
  const source = await resolveSource(env, job.account_id, { file_id: request.source_file_id }, "image", IMAGE_SOURCE_MAX_BYTES);
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
};
