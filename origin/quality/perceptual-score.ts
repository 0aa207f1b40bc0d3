// SSIMULACRA 2 off the event loop: a few worker threads, each scoring one pair at a time.
// Memory per running job is the two inputs (copied to the worker, 3 or 4 bytes a pixel each)
// plus the metric's own ~6 bytes a pixel (see ssimulacra2.ts); with `size` workers that is the
// bound. Idle workers do not keep the process alive.
import { Worker } from "node:worker_threads";
import { z } from "@hono/zod-openapi";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";

const WORKER_URL = new URL("./score-worker.ts", import.meta.url);

const scoreReplySchema = z.union([
  z.object({ id: z.number(), score: z.number() }),
  z.object({ id: z.number(), error: z.string() }),
]);

interface Slot {
  worker: Worker | null;
  busy: boolean;
}

interface QueuedScore {
  reference: RawImage;
  candidate: RawImage;
  resolve: (score: number) => void;
  reject: (error: unknown) => void;
}

export class PerceptualScorePool {
  readonly #slots: Slot[];
  readonly #queue: QueuedScore[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: { size?: number } = {}) {
    this.#slots = Array.from({ length: Math.max(1, options.size ?? 1) }, () => ({ worker: null, busy: false }));
  }

  /** SSIMULACRA 2 of `candidate` against `reference` (same size, 8-bit sRGB): 100 identical, 90 visually lossless. */
  score(reference: RawImage, candidate: RawImage): Promise<number> {
    if (this.#closed) return Promise.reject(new Error("perceptual score pool closed"));
    return new Promise((resolve, reject) => {
      this.#queue.push({ reference, candidate, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.splice(0)) queued.reject(new Error("perceptual score pool closed"));
    await Promise.all(
      this.#slots.map(async (slot) => {
        const worker = slot.worker;
        slot.worker = null;
        if (worker !== null) await worker.terminate();
      }),
    );
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      const queued = this.#queue.shift();
      if (queued === undefined) return;
      this.#run(slot, queued);
    }
  }

  #run(slot: Slot, queued: QueuedScore): void {
    slot.busy = true;
    const worker = slot.worker ?? this.#start(slot);
    const id = this.#nextId++;
    worker.ref();
    const finish = (settle: () => void, broken = false) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      worker.unref();
      // A worker that failed (out of memory, say) is not handed the next job.
      if (broken && slot.worker === worker) {
        slot.worker = null;
        void worker.terminate();
      }
      slot.busy = false;
      settle();
      this.#dispatch();
    };
    const onMessage = (message: unknown) => {
      const parsed = scoreReplySchema.safeParse(message);
      if (!parsed.success) return finish(() => queued.reject(parsed.error));
      const reply = parsed.data;
      if (reply.id !== id) return;
      finish(() => ("score" in reply ? queued.resolve(reply.score) : queued.reject(new RangeError(reply.error))));
    };
    const onError = (error: Error) => finish(() => queued.reject(error), true);
    const onExit = (code: number) => finish(() => queued.reject(new Error(`perceptual score worker exited with code ${code}`)), true);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    const request: ScoreRequest = { id, reference: queued.reference, candidate: queued.candidate };
    worker.postMessage(request);
  }

  #start(slot: Slot): Worker {
    const worker = new Worker(WORKER_URL);
    worker.unref();
    // An idle worker that dies is replaced on the next job; a running job's failure is handled in #run.
    worker.on("error", () => undefined);
    worker.once("exit", () => {
      if (slot.worker === worker) slot.worker = null;
    });
    slot.worker = worker;
    return worker;
  }
}

let sharedPool: PerceptualScorePool | null = null;

/** Scores on a process-wide pool of one worker, started on first use. */
export function perceptualScore(reference: RawImage, candidate: RawImage): Promise<number> {
  sharedPool ??= new PerceptualScorePool();
  return sharedPool.score(reference, candidate);
}
