// SVG sources are drawn in child processes (svg-process.ts, drawing in svg-drawing.ts), one
// drawing at a time each. librsvg cannot be interrupted: sharp's own timeout is checked only
// between strips of the raster, and one strip of a blurred 8000x8000 canvas ran for minutes
// past it. Terminating a worker thread would stop only its JavaScript, while libvips' threads
// drew on. Killing the process at the call's deadline stops the drawing, so the call's compute
// slot is free again when its deadline passes.
import type { z } from "@hono/zod-openapi";
import { ChildProcessWorker } from "../../worker-pool/child-process-worker.ts";
import { currentTicket } from "../../worker-pool/deadline.ts";
import { outcomeReplySchema, resultOf } from "../../worker-pool/job-outcome.ts";
import { poolSizes } from "../../worker-pool/pool-sizes.ts";
import { WorkerPool, type WorkerPoolLoad } from "../../worker-pool/worker-pool.ts";
import type { SvgRequest } from "./svg-process.ts";
import type { RasterTarget } from "./raster-target.ts";

const svgReplySchema = outcomeReplySchema<Uint8Array>();

// A drawing process is replaced now and then, so that what libvips and glib keep between drawings stays small.
const JOBS_PER_PROCESS = 64;

let svgPool: WorkerPool<Omit<SvgRequest, "id">, z.infer<typeof svgReplySchema>> | undefined;

/** The processes SVGs are drawn in, started by the first SVG. As many as compute slots: each drawing holds one. */
function svgProcesses() {
  const size = poolSizes().computeSlots;
  svgPool ??= new WorkerPool({
    workerUrl: new URL("./svg-process.ts", import.meta.url),
    startWorker: (url) => new ChildProcessWorker(url),
    name: "SVG drawing pool",
    size,
    maxPerAccount: size,
    readReply: (message) => svgReplySchema.parse(message),
    retireAfter: (_reply, jobs) => jobs >= JOBS_PER_PROCESS,
    unrefWhenIdle: true,
  });
  return svgPool;
}

/** The drawing processes' load: drawings running, and those killed at their deadline. */
export function svgDrawingLoad(): WorkerPoolLoad {
  return svgProcesses().load();
}

/** The SVG drawn as a PNG at the asked size, in a process the call's deadline kills. */
export async function svgToPng(bytes: Uint8Array, target: RasterTarget, maxPixels: number): Promise<Uint8Array> {
  const reply = await svgProcesses().run({ svg: bytes, target, maxPixels }, [], currentTicket());
  return resultOf(reply.outcome, "Drawing an SVG");
}
