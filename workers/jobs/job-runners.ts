import { runBatchJob } from "../operations/image-batch.ts";
import { runOptimizeJob } from "../operations/image-optimize-job.ts";
import { runPdfCompressJob } from "../operations/pdf-compress-job.ts";
import { runXlsxGenerateJob } from "../operations/xlsx-generate-job.ts";
import type { JobRunners } from "./job-runner.ts";

/** Every job operation's runner, each registered by its operation; the type makes the map total. */
export const jobRunners: JobRunners = {
  "image.optimize": runOptimizeJob,
  "image.batch": runBatchJob,
  "xlsx.generate": runXlsxGenerateJob,
  "pdf.compress": runPdfCompressJob,
};
