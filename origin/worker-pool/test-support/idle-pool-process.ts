// Run as its own process: one job on a pool with unrefWhenIdle, never closed. The process
// exits by itself only if the idle worker does not hold it open.
import { z } from "@hono/zod-openapi";
import { WorkerPool } from "../worker-pool.ts";
import type { ProbeRequest } from "./probe-worker.ts";

const pool = new WorkerPool<Omit<ProbeRequest, "id">, { id: number; jobs: number }>({
  workerUrl: new URL("./probe-worker.ts", import.meta.url),
  name: "idle probe pool",
  readReply: (message) => z.object({ id: z.number(), jobs: z.number() }).parse(message),
  unrefWhenIdle: true,
});
const reply = await pool.run({ act: "answer" });
process.stdout.write(`jobs=${reply.jobs}`);
