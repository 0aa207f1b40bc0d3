import os from "node:os";
import { Hono } from "hono";
import { concurrencyLimit } from "../contracts/concurrency/concurrency-limit.ts";
import { REQUEST_ID_HEADER } from "../contracts/origin/framing.ts";
import { problemBody, ProblemError } from "../contracts/problems/catalogue.ts";
import { problemFromError, problemResponse } from "../contracts/problems/problem-response.ts";
import { sharedSecret } from "./http/shared-secret.ts";
import { PdfWorkerPool, type PdfJobRunner } from "./pdf/pdf-worker-pool.ts";
import { registerImageMezzanine } from "./routes/image-mezzanine.ts";
import { registerImagePlaceholder } from "./routes/image-placeholder.ts";
import { registerImageProcess } from "./routes/image-process.ts";
import { registerImageTransform } from "./routes/image-transform.ts";
import { registerPdfRoutes } from "./routes/pdf.ts";
import { registerXlsxGenerate } from "./routes/xlsx-generate.ts";

export interface OriginConfig {
  /** Null only in development, where the origin listens on loopback. */
  secret: string | null;
  /** Runs PDF jobs; its worker threads start on the first PDF request. */
  pdfPool?: PdfJobRunner;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID_PATTERN.test(header) ? header : `origin_${crypto.randomUUID()}`;
}

export function createOriginApp(config: OriginConfig): Hono {
  const app = new Hono();
  // Every problem carries a request id: the edge's when it sent one, so one id finds the request
  // in both logs. Only ours are logged with their stack: the text of an unexpected error stays here.
  app.onError((error, c) => {
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    if (!(error instanceof ProblemError)) console.error(`[${requestId}] ${c.req.method} ${c.req.path}`, error);
    return problemResponse(problemFromError(error, requestId), { [REQUEST_ID_HEADER]: requestId });
  });
  app.notFound((c) => problemResponse(problemBody("not_found", "No such origin route.", { requestId: requestIdOf(c.req.header(REQUEST_ID_HEADER)) })));

  // RSS lets operators (and bench:image) watch that memory stays flat across jobs.
  app.get("/healthz", (c) => c.json({ status: "ok", rss_bytes: process.memoryUsage().rss }));
  if (config.secret !== null) app.use("*", sharedSecret(config.secret));
  // One limit across every sharp and exceljs route: per-route limits would let the origin run
  // several times its cores' worth of decoded images at once.
  const computeLimit = concurrencyLimit(os.availableParallelism());
  registerImageProcess(app, computeLimit);
  registerImageTransform(app, computeLimit);
  registerImageMezzanine(app, computeLimit);
  registerImagePlaceholder(app, computeLimit);
  registerXlsxGenerate(app, computeLimit);
  registerPdfRoutes(app, config.pdfPool ?? new PdfWorkerPool({ size: 1 }));
  return app;
}
