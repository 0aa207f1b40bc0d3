// The one list of processing operations. The route table (routes/index.ts), the job runners
// (jobs/job-runners.ts) and the job view's union (jobs/job-view.ts) are built from it; its type
// makes it total over contracts/operations.ts, with a job side exactly where the contract says
// the operation runs as a job.
import type { JobOperation, ProcessingOperation } from "../../contracts/operations.ts";
import { imageBatch } from "./image-batch.ts";
import { imageOptimize } from "./image-optimize.ts";
import type { AnyOperation } from "./operation.ts";
import { pdfAnalyze } from "./pdf-analyze.ts";
import { pdfCompress } from "./pdf-compress.ts";
import { xlsxGenerate } from "./xlsx-generate.ts";

type Declared = {
  [Name in ProcessingOperation]: AnyOperation & { name: Name } & (Name extends JobOperation ? { job: object } : { job: null });
};

/** In the order the OpenAPI document lists their paths. */
export const operationModules = {
  "image.optimize": imageOptimize,
  "image.batch": imageBatch,
  "xlsx.generate": xlsxGenerate,
  "pdf.analyze": pdfAnalyze,
  "pdf.compress": pdfCompress,
} satisfies Declared;

export type OperationModules = typeof operationModules;

export const processingOperations: AnyOperation[] = Object.values(operationModules);
