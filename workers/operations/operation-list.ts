// The one list of processing operations. The route table (routes/index.ts), the job runners
// (jobs/job-runners.ts) and the job view's union (jobs/job-view.ts) are built from it; its type
// makes it total over contracts/operations.ts, with a job side exactly where the contract says
// the operation runs as a job.
import type { JobOperation, ProcessingOperation } from "../../contracts/operations.ts";
import { imageBatch } from "./image-batch.ts";
import { imageOptimize } from "./image-optimize.ts";
import { erasePlannedOperation, eraseSourceOperation, type ErasedOperation } from "./operation.ts";
import { pdfAnalyze } from "./pdf-analyze.ts";
import { pdfCompress } from "./pdf-compress.ts";
import { xlsxGenerate } from "./xlsx-generate.ts";

type Declared = {
  [Name in ProcessingOperation]: { name: Name; erased: ErasedOperation } & (Name extends JobOperation ? { job: object } : { job: null });
};

/** In the order the OpenAPI document lists their paths. */
export const operationModules = {
  "image.optimize": { ...imageOptimize, erased: eraseSourceOperation(imageOptimize) },
  "image.batch": { ...imageBatch, erased: erasePlannedOperation(imageBatch) },
  "xlsx.generate": { ...xlsxGenerate, erased: erasePlannedOperation(xlsxGenerate) },
  "pdf.analyze": { ...pdfAnalyze, erased: eraseSourceOperation(pdfAnalyze) },
  "pdf.compress": { ...pdfCompress, erased: eraseSourceOperation(pdfCompress) },
} satisfies Declared;

export type OperationModules = typeof operationModules;

export const processingOperations: ErasedOperation[] = Object.values(operationModules).map((module) => module.erased);
