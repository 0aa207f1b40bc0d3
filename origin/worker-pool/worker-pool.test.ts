import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { ProbeRequest } from "./test-support/probe-worker.ts";
import { WorkerPool, type WorkerPoolOptions } from "./worker-pool.ts";

const probeReplySchema = z.object({ id: z.number(), threadId: z.number(), jobs: z.number() });
type ProbeReply = z.infer<typeof probeReplySchema>;

const pools: WorkerPool<Omit<ProbeRequest, "id">, ProbeReply>[] = [];

function probePool(options: Partial<WorkerPoolOptions<ProbeReply>> = {}) {
  const pool = new WorkerPool<Omit<ProbeRequest, "id">, ProbeReply>({
    workerUrl: new URL("./test-support/probe-worker.ts", import.meta.url),
    name: "probe pool",
    readReply: (message) => probeReplySchema.parse(message),
    ...options,
  });
  pools.push(pool);
  return pool;
}

const answer = { act: "answer" } as const;

describe("WorkerPool", () => {
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });

  it("runs jobs on at most `size` workers, one job at a time each, and keeps a worker between jobs", async () => {
    const pool = probePool({ size: 2 });
    const replies = await Promise.all(Array.from({ length: 6 }, () => pool.run(answer)));
    expect(pool.workersStarted).toBe(2);
    const threads = [...new Set(replies.map((reply) => reply.threadId))];
    expect(threads).toHaveLength(2);
    // Each worker counted its own jobs 1, 2, 3...: no job ran twice, none was lost.
    for (const thread of threads) {
      const jobs = replies.filter((reply) => reply.threadId === thread).map((reply) => reply.jobs);
      expect(jobs.sort()).toEqual(jobs.map((_, i) => i + 1));
    }
  });

  it("replaces a worker when retireAfter says so, before it runs another job", async () => {
    const pool = probePool({ retireAfter: (_reply, jobs) => jobs >= 2 });
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await pool.run(answer));
    expect(replies.map((reply) => reply.jobs)).toEqual([1, 2, 1, 2, 1]);
    expect(new Set(replies.map((reply) => reply.threadId)).size).toBe(3);
    expect(pool.workersStarted).toBe(3);
  });

  it("rejects the job of a worker that exits or throws, and runs the next job on a fresh worker", async () => {
    const pool = probePool();
    const first = await pool.run(answer);
    await expect(pool.run({ act: "exit" })).rejects.toThrow(/probe pool: a worker exited with code 3/);
    const afterExit = await pool.run(answer);
    await expect(pool.run({ act: "throw" })).rejects.toThrow(/probe worker failed/);
    const afterThrow = await pool.run(answer);
    expect(new Set([first.threadId, afterExit.threadId, afterThrow.threadId]).size).toBe(3);
    expect(afterThrow.jobs).toBe(1);
    expect(pool.workersStarted).toBe(3);
  });

  it("rejects a reply it cannot read and keeps serving on the same worker", async () => {
    const pool = probePool();
    await expect(pool.run({ act: "garbage" })).rejects.toThrow(z.ZodError);
    const next = await pool.run(answer);
    expect(next.jobs).toBe(2);
    expect(pool.workersStarted).toBe(1);
  });

  it("with unrefWhenIdle lets a process whose pool sits idle exit without closing it", async () => {
    // The child hangs (and execFile's timeout fails the test) if an idle worker holds it open.
    const script = fileURLToPath(new URL("./test-support/idle-pool-process.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 30_000 });
    expect(stdout).toBe("jobs=1");
  });

  it("answers a job past its deadline processing_timeout, terminates its worker and runs the next job on a fresh one", async () => {
    const pool = probePool();
    const before = await pool.run(answer);
    const spun = pool.run({ act: "spin" }, [], { account: "A", deadlineAt: Date.now() + 100 });
    const next = pool.run(answer, [], { account: "A" });
    const failure = await spun.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).slug).toBe("processing_timeout");
    const after = await next;
    expect(after.threadId).not.toBe(before.threadId);
    expect(after.jobs).toBe(1);
    expect(pool.workersStarted).toBe(2);
    expect(pool.load()).toEqual({ size: 1, busy: 0, queued: 0, timedOut: 1 });
  });

  it("gives a waiting account its turn before an account that already holds a worker", async () => {
    const pool = probePool();
    const done: string[] = [];
    const track = (name: string, account: string) => pool.run(answer, [], { account }).then(() => done.push(name));
    // a0 takes the only worker at once; the rest wait: A's backlog must not go before B's one job.
    await Promise.all([track("a0", "A"), track("a1", "A"), track("a2", "A"), track("b1", "B"), track("a3", "A"), track("c1", "C")]);
    expect(done).toEqual(["a0", "b1", "c1", "a1", "a2", "a3"]);
  });

  it("keeps a worker for other accounts while one account's giant job holds the rest", async () => {
    const pool = probePool({ size: 2, maxPerAccount: 1 });
    const done: string[] = [];
    const giant = pool.run({ act: "spin" }, [], { account: "A" }).catch(() => done.push("a-giant"));
    const small = pool.run(answer, [], { account: "A" }).catch(() => done.push("a-small"));
    // A holds one worker with a job that never ends: its second job waits, B's runs on the other.
    await pool.run(answer, [], { account: "B" }).then(() => done.push("b"));
    expect(pool.load()).toMatchObject({ busy: 1, queued: 1 });
    await pool.close();
    await Promise.all([giant, small]);
    expect(done[0]).toBe("b");
    expect(done.slice(1).sort()).toEqual(["a-giant", "a-small"]);
  });

  it("rejects queued and later jobs once closed", async () => {
    const pool = probePool();
    const running = Promise.allSettled([pool.run(answer)]);
    const queued = expect(pool.run(answer)).rejects.toThrow(/probe pool closed/);
    await pool.close();
    await queued;
    await expect(pool.run(answer)).rejects.toThrow(/probe pool closed/);
    await running;
  });
});
