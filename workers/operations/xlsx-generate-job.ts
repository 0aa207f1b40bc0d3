import { z } from "@hono/zod-openapi";
import { xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import { deleteFile } from "../files/file-lifecycle.ts";
import { openFile } from "../files/file-store.ts";
import type { JobRunner } from "../jobs/job-runner.ts";
import { generateWorkbook } from "./xlsx-generate.ts";

/** An xlsx.generate job's stored request: the workbook JSON is a file, since it may be large. */
export const xlsxJobRequestSchema = z.object({ request_file_id: z.string(), base_url: z.string() });

/** Two stages: the stored workbook read, then the origin's writing with its output stored and billed. */
export const runXlsxGenerateJob: JobRunner<"xlsx.generate"> = async (env, job, progress) => {
  const request = xlsxJobRequestSchema.parse(job.request);
  await progress.start(2);
  const opened = await openFile(env, job.account_id, request.request_file_id);
  const workbook = xlsxRequestSchema.parse(JSON.parse(await opened.object.text()));
  await progress.advance();
  const result = await generateWorkbook(env, { accountId: job.account_id, workbook, chargeKey: jobChargeKey(job.id), baseUrl: request.base_url, requestId: job.id });
  await deleteFile(env, job.account_id, request.request_file_id);
  return result;
};
