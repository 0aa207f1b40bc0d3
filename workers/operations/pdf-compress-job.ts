import { z } from "@hono/zod-openapi";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import type { JobRunner } from "../jobs/job-runner.ts";
import { resolveSource } from "../sources/resolve-source.ts";
import { compressPdf } from "./pdf.ts";

/** A pdf.compress job's stored request: its source already in R2, so the job reads only R2. */
export const pdfCompressJobRequestSchema = z.object({ source_file_id: z.string(), options: pdfCompressOptionsSchema, base_url: z.string() });

/**
 * Two stages: the stored source read, then the origin's compression with its output stored and
 * billed. The origin answers a compress once, with the whole result, so progress inside that
 * stage (pages or images done) is not measurable from here.
 */
export const runPdfCompressJob: JobRunner<"pdf.compress"> = async (env, job, progress) => {
  const request = pdfCompressJobRequestSchema.parse(job.request);
  await progress.start(2);
  const source = await resolveSource(env, job.account_id, { file_id: request.source_file_id }, "pdf", PDF_MAX_BYTES);
  await progress.advance();
  return compressPdf(env, { accountId: job.account_id, source, options: request.options, chargeKey: jobChargeKey(job.id), baseUrl: request.base_url, requestId: job.id });
};
