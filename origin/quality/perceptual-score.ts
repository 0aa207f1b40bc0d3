// SSIMULACRA 2 off the event loop: a few worker threads, each scoring one pair at a time.
// Memory per running job is the two inputs (copied to the worker, 3 or 4 bytes a pixel each)
// plus the metric's own ~6 bytes a pixel (see ssimulacra2.ts); with `size` workers that is the
// bound. Idle workers do not keep the process alive.
import { z } from "@hono/zod-openapi";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";
import { WorkerPool } from "../worker-pool/worker-pool.ts";

const WORKER_URL = new URL("./score-worker.ts", import.meta.url);

const scoreReplySchema = z.union([
  z.object({ id: z.number(), score: z.number() }),
  z.object({ id: z.number(), error: z.string() }),
]);

export class PerceptualScorePool {
  readonly #pool: WorkerPool<Omit<ScoreRequest, "id">, z.infer<typeof scoreReplySchema>>;

  constructor(options: { size?: number } = {}) {
    this.#pool = new WorkerPool({
      workerUrl: WORKER_URL,
      name: "perceptual score pool",
      size: options.size,
      readReply: (message) => scoreReplySchema.parse(message),
      unrefWhenIdle: true,
    });
  }

  /** SSIMULACRA 2 of `candidate` against `reference` (same size, 8-bit sRGB): 100 identical, 90 visually lossless. */
  async score(reference: RawImage, candidate: RawImage): Promise<number> {
    const reply = await this.#pool.run({ reference, candidate });
    if ("error" in reply) throw new RangeError(reply.error);
    return reply.score;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

let sharedPool: PerceptualScorePool | null = null;

/** Scores on a process-wide pool of one worker, started on first use. */
export function perceptualScore(reference: RawImage, candidate: RawImage): Promise<number> {
  sharedPool ??= new PerceptualScorePool();
  return sharedPool.score(reference, candidate);
}
