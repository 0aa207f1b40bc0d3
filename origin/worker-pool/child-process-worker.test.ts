import { afterAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { ChildProcessWorker } from "./child-process-worker.ts";
import type { ProcessProbeRequest } from "./test-support/probe-process.ts";
import { WorkerPool } from "./worker-pool.ts";

const replySchema = z.object({ id: z.number(), pid: z.number() });

const pool = new WorkerPool<Omit<ProcessProbeRequest, "id">, z.infer<typeof replySchema>>({
  workerUrl: new URL("./test-support/probe-process.ts", import.meta.url),
  startWorker: (url) => new ChildProcessWorker(url),
  name: "process probe pool",
  readReply: (message) => replySchema.parse(message),
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a WorkerPool of child processes", () => {
  afterAll(() => pool.close());

  it("runs jobs in one process, kills it at a job's deadline, and runs the next job in a new one", async () => {
    const first = (await pool.run({ act: "answer" })).pid;
    expect(first).not.toBe(process.pid);
    expect((await pool.run({ act: "answer" })).pid).toBe(first);
    const stuck = await pool.run({ act: "spin" }, [], { deadlineAt: Date.now() + 200 }).catch((error: unknown) => error);
    expect(stuck).toMatchObject({ slug: "processing_timeout" });
    expect(pool.load()).toMatchObject({ busy: 0, timedOut: 1 });
    const killedBy = Date.now() + 2_000;
    while (alive(first) && Date.now() < killedBy) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(first)).toBe(false);
    const next = (await pool.run({ act: "answer" })).pid;
    expect([next === first, alive(next)]).toEqual([false, true]);
  });
});
