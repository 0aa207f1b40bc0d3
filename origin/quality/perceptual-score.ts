// SSIMULACRA 2 off the event loop: a few worker threads, each scoring one pair at a time.
// Memory per running job is the two inputs (copied to the worker, 3 or 4 bytes a pixel each)
// plus the metric's own: about 33 bytes a pixel for the prepared reference (about 9 above 4 MP) and a few rows for
// the candidate (see ssimulacra2.ts). A search scores through `referenceScorer`, whose
// reference the worker prepares once and keeps (up to 120 MB of kept references a worker,
// score-worker.ts). Idle workers do not keep the process alive.
import { z } from "@hono/zod-openapi";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";
import { WorkerPool } from "../worker-pool/worker-pool.ts";

const WORKER_URL = new URL("./score-worker.ts", import.meta.url);

const scoreReplySchema = z.union([
  z.object({ id: z.number(), score: z.number() }),
  z.object({ id: z.number(), error: z.string() }),
]);

/** SSIMULACRA 2 of a candidate against the scorer's reference. */
export type ReferenceScorer = (candidate: RawImage) => Promise<number>;

let referenceSerial = 0;

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

  /**
   * Scores candidates against one reference, its side of the metric computed once in the worker
   * and kept there for the scorer's later candidates (prepared again if the worker dropped it or
   * another worker takes the job).
   */
  referenceScorer(reference: RawImage): ReferenceScorer {
    const referenceKey = `reference-${++referenceSerial}`;
    return async (candidate) => {
      const reply = await this.#pool.run({ reference, candidate, referenceKey });
      if ("error" in reply) throw new RangeError(reply.error);
      return reply.score;
    };
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

/** A scorer of candidates against one reference on the process-wide pool (see PerceptualScorePool.referenceScorer). */
export function perceptualScorer(reference: RawImage): ReferenceScorer {
  sharedPool ??= new PerceptualScorePool();
  return sharedPool.referenceScorer(reference);
}
