import { Hono } from "hono";
import { encodeOriginLoad, ORIGIN_LOAD_HEADER, REQUEST_ID_HEADER } from "../contracts/origin/framing.ts";
import { ORIGIN_HEALTH_PATH, type OriginHealth, type PoolLoadReport } from "../contracts/origin/health.ts";
import { problemBody, ProblemError } from "../contracts/problems/catalogue.ts";
import { problemFromError, problemResponse } from "../contracts/problems/problem-response.ts";
import { sharedSecret } from "./http/shared-secret.ts";
import { PdfWorkerPool, type PdfJobRunner } from "./pdf/pdf-worker-pool.ts";
import { callClocks } from "./routes/call-ticket.ts";
import type { OriginServices } from "./routes/origin-route.ts";
import { originRoutes } from "./routes/route-list.ts";
import { ComputeSlots } from "./worker-pool/compute-slots.ts";
import { poolSizes } from "./worker-pool/pool-sizes.ts";
import type { WorkerPoolLoad } from "./worker-pool/worker-pool.ts";

export interface OriginConfig {
  /** Null only in development, where the origin listens on loopback. */
  secret: string | null;
  /** Runs PDF jobs; its worker threads start on the first PDF request. */
  pdfPool?: PdfJobRunner;
  /** Runs sharp and exceljs work in this process. */
  computeSlots?: ComputeSlots;
  /** Shortens every deadline by this factor (0 < scale <= 1); 1 keeps the declared deadlines. */
  deadlineScale?: number;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID_PATTERN.test(header) ? header : `origin_${crypto.randomUUID()}`;
}

function report(load: WorkerPoolLoad): PoolLoadReport {
  return { size: load.size, busy: load.busy, queued: load.queued, timed_out: load.timedOut };
}

/** What every reply tells the edge: the work in this process, over both pools, which share its cores. */
function loadHeader(...pools: WorkerPoolLoad[]): string {
  const sum = (field: "busy" | "queued" | "size") => pools.reduce((total, pool) => total + pool[field], 0);
  return encodeOriginLoad({ busy: sum("busy"), queued: sum("queued"), size: sum("size") });
}

function saturated(load: WorkerPoolLoad): boolean {
  return load.queued > 0 && load.busy >= load.size;
}

export function createOriginApp(config: OriginConfig): Hono {
  const sizes = poolSizes();
  const computeSlots = config.computeSlots ?? new ComputeSlots({ size: sizes.computeSlots, maxPerAccount: sizes.computePerAccount });
  const pdfPool = config.pdfPool ?? new PdfWorkerPool({ size: sizes.pdfWorkers, maxPerAccount: sizes.pdfPerAccount });
  const app = new Hono();
  // Every problem carries a request id: the edge's when it sent one, so one id finds the request
  // in both logs. Only ours are logged with their stack: the text of an unexpected error stays here.
  app.onError((error, c) => {
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    if (!(error instanceof ProblemError)) console.error(`[${requestId}] ${c.req.method} ${c.req.path}`, error);
    return problemResponse(problemFromError(error, requestId), { [REQUEST_ID_HEADER]: requestId });
  });
  let requests = 0;
  // Set once the handler has answered (its problem too), so the load is the one the call leaves behind.
  app.use("*", async (c, next) => {
    if (c.req.path !== ORIGIN_HEALTH_PATH) requests++;
    await next();
    c.res.headers.set(ORIGIN_LOAD_HEADER, loadHeader(computeSlots.load(), pdfPool.load()));
  });
  app.notFound((c) => problemResponse(problemBody("not_found", "No such origin route.", { requestId: requestIdOf(c.req.header(REQUEST_ID_HEADER)) })));

  // RSS lets operators (and bench:image) watch that memory stays flat across jobs; the pools'
  // load says whether new work would start now or wait.
  app.get(ORIGIN_HEALTH_PATH, (c) => {
    const compute = computeSlots.load();
    const pdf = pdfPool.load();
    const health: OriginHealth = {
      status: saturated(compute) || saturated(pdf) ? "saturated" : "ok",
      rss_bytes: process.memoryUsage().rss,
      requests,
      pools: { compute: report(compute), pdf: report(pdf) },
    };
    return c.json(health);
  });
  if (config.secret !== null) app.use("*", sharedSecret(config.secret));
  // One scheduler across every sharp and exceljs route: per-route limits would let the origin run
  // several times its cores' worth of decoded images at once. The routes are the declared origin
  // endpoints' modules (routes/route-list.ts).
  const services: OriginServices = { computeSlots, pdfPool, clocks: callClocks(config.deadlineScale) };
  for (const route of originRoutes) app.post(route.path, (c) => route.handle(c, services));
  return app;
}
