import { serve } from "@hono/node-server";
import sharp from "sharp";
import { createOriginApp } from "./app.ts";
import { createDrain } from "./http/drain.ts";
import { PdfWorkerPool } from "./pdf/pdf-worker-pool.ts";
import { poolSizes } from "./worker-pool/pool-sizes.ts";

const port = Number(process.env.PORT ?? 8788);
const host = process.env.HOST ?? "127.0.0.1";
const development = (process.env.ENVIRONMENT ?? "production") === "development";
const secret = process.env.ORIGIN_SECRET || null;
// An operator's (or a test's) way to shorten every deadline; it can never lengthen one.
const deadlineScale = Number(process.env.ORIGIN_DEADLINE_SCALE ?? "1");
if (!(deadlineScale > 0 && deadlineScale <= 1)) {
  console.error("origin: ORIGIN_DEADLINE_SCALE must be a number in (0, 1]; refusing to start.");
  process.exit(1);
}

if (secret === null && !development) {
  console.error("origin: ORIGIN_SECRET is required outside development; refusing to start.");
  process.exit(1);
}

// libvips' operation cache keeps decoded images alive between requests; a stateless service
// gains nothing from it and its RSS must stay flat across jobs.
sharp.cache(false);

// PDF threads sized from the cores; inputs move to them rather than being copied.
const sizes = poolSizes();
const pdfPool = new PdfWorkerPool({ size: sizes.pdfWorkers, maxPerAccount: sizes.pdfPerAccount, transferInput: true });

/** Under the usual 30 s grace period container platforms give between SIGTERM and SIGKILL. */
const DRAIN_TIMEOUT_MS = 25_000;

const drain = createDrain();
const server = serve({ fetch: drain.guard(createOriginApp({ secret, pdfPool, deadlineScale }).fetch), port, hostname: host }, (info) => {
  console.log(`origin listening on http://${info.address}:${info.port}`);
});
drain.watch(server);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`origin draining ${drain.inFlight} request(s) on ${signal}`);
  const outcome = await drain.drain(DRAIN_TIMEOUT_MS);
  if (outcome === "timed_out") console.error(`origin stopped with ${drain.inFlight} request(s) still running`);
  server.close();
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(signal));
