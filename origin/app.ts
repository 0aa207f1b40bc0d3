import os from "node:os";
import { Hono } from "hono";
import { concurrencyLimit } from "../contracts/concurrency/concurrency-limit.ts";
import { problemBody, ProblemError } from "../contracts/problems/catalogue.ts";
import { problemResponse } from "../contracts/problems/problem-response.ts";
import { sharedSecret } from "./http/shared-secret.ts";
import { PdfWorkerPool } from "./pdf/pdf-worker-pool.ts";
import { registerImageMezzanine } from "./routes/image-mezzanine.ts";
import { registerImageProcess } from "./routes/image-process.ts";
import { registerImageTransform } from "./routes/image-transform.ts";
import { registerPdfRoutes } from "./routes/pdf.ts";
import { registerXlsxGenerate } from "./routes/xlsx-generate.ts";

export interface OriginConfig {
  /** Null only in development, where the origin listens on loopback. */
  secret: string | null;
  /** Runs PDF jobs; its worker threads start on the first PDF request. */
  pdfPool?: PdfWorkerPool;
}

export function createOriginApp(config: OriginConfig): Hono {
  const app = new Hono();
  app.onError((error) => {
    if (error instanceof ProblemError) return problemResponse(error.toBody());
    console.error(error);
    return problemResponse(problemBody("internal_error", "The origin failed unexpectedly."));
  });
  app.notFound(() => problemResponse(problemBody("not_found", "No such origin route.")));

  // RSS lets operators (and bench:image) watch that memory stays flat across jobs.
  app.get("/healthz", (c) => c.json({ status: "ok", rss_bytes: process.memoryUsage().rss }));
  if (config.secret !== null) app.use("*", sharedSecret(config.secret));
  // One limit across every sharp and exceljs route: per-route limits would let the origin run
  // several times its cores' worth of decoded images at once.
  const computeLimit = concurrencyLimit(os.availableParallelism());
  registerImageProcess(app, computeLimit);
  registerImageTransform(app, computeLimit);
  registerImageMezzanine(app, computeLimit);
  registerXlsxGenerate(app, computeLimit);
  registerPdfRoutes(app, config.pdfPool ?? new PdfWorkerPool({ size: 1 }));
  return app;
}
