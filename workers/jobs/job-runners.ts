import { runJob as imageBatch } from "../routes/v1_image_batch.ts";
import { runJob as imageOptimize } from "../routes/v1_image_optimize.ts";
import { runJob as pdfCompress } from "../routes/v1_pdf_compress.ts";
import { runJob as xlsxGenerate } from "../routes/v1_xlsx_generate.ts";
import type { JobRunners } from "./job-runner.ts";

/** Every operation that can run as an async job, by its operation name. */
export const jobRunners: JobRunners = {
  "image.optimize": imageOptimize,
  "image.batch": imageBatch,
  "xlsx.generate": xlsxGenerate,
  "pdf.compress": pdfCompress,
};
