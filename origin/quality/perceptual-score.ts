// SSIMULACRA 2 off the event loop: a few worker threads ("lanes"), each scoring one pair at a time.
// Memory per running job is the two inputs (copied to the worker, 3 or 4 bytes a pixel each)
// plus the metric's own: about 33 bytes a pixel for the prepared reference (about 9 above 4 MP) and a few rows for
// the candidate (see ssimulacra2.ts). A search scores through `referenceScorer`, whose
// reference one lane prepares once and keeps (up to 120 MB of kept references a worker,
// score-worker.ts); every job of that scorer goes to that lane, so the reference is never
// prepared twice. Scorers are dealt to lanes in turn, so a search's sample and whole image sit on
// different lanes and the whole image's side can be prepared while the sample is probed.
// Idle workers do not keep the process alive.
import { z } from "@hono/zod-openapi";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";
import { WorkerPool } from "../worker-pool/worker-pool.ts";

const WORKER_URL = new URL("./score-worker.ts", import.meta.url);

const scoreReplySchema = z.union([
  z.object({ id: z.number(), score: z.number() }),
  z.object({ id: z.number(), prepared: z.literal(true) }),
  z.object({ id: z.number(), error: z.string() }),
]);
type ScoreReply = z.infer<typeof scoreReplySchema>;
type Lane = WorkerPool<Omit<ScoreRequest, "id">, ScoreReply>;

/** SSIMULACRA 2 of a candidate against the scorer's reference. */
export interface ReferenceScorer {
  (candidate: RawImage): Promise<number>;
  /** Prepares and keeps the reference's side now, so a later candidate is only compared. */
  prepare(): Promise<void>;
}

let referenceSerial = 0;

export class PerceptualScorePool {
  readonly #lanes: Lane[];
  #nextLane = 0;

  constructor(options: { size?: number } = {}) {
    this.#lanes = Array.from(
      { length: Math.max(1, options.size ?? 1) },
      (_, index): Lane =>
        new WorkerPool({
          workerUrl: WORKER_URL,
          name: `perceptual score pool (lane ${index + 1})`,
          size: 1,
          readReply: (message) => scoreReplySchema.parse(message),
          unrefWhenIdle: true,
        }),
    );
  }

  /** SSIMULACRA 2 of `candidate` against `reference` (same size, 8-bit sRGB): 100 identical, 90 visually lossless. */
  async score(reference: RawImage, candidate: RawImage): Promise<number> {
    const idlest = this.#lanes.reduce((a, b) => (waiting(b) < waiting(a) ? b : a));
    return scoreOf(await idlest.run({ reference, candidate }));
  }

  /**
   * Scores candidates against one reference, its side of the metric computed once in one lane's
   * worker and kept there for the scorer's later candidates (prepared again if the worker dropped it).
   */
  referenceScorer(reference: RawImage): ReferenceScorer {
    const referenceKey = `reference-${++referenceSerial}`;
    const lane = this.#lanes[this.#nextLane++ % this.#lanes.length]!;
    const scorer = async (candidate: RawImage) => scoreOf(await lane.run({ reference, candidate, referenceKey }));
    const prepare = async () => {
      const reply = await lane.run({ reference, candidate: null, referenceKey });
      if ("error" in reply) throw new RangeError(reply.error);
    };
    return Object.assign(scorer, { prepare });
  }

  close(): Promise<void> {
    return Promise.all(this.#lanes.map((lane) => lane.close())).then(() => undefined);
  }
}

function waiting(lane: Lane): number {
  const { busy, queued } = lane.load();
  return busy + queued;
}

function scoreOf(reply: ScoreReply): number {
  if ("error" in reply) throw new RangeError(reply.error);
  if (!("score" in reply)) throw new Error("perceptual score pool: a score request was answered without a score");
  return reply.score;
}

// Two lanes: a search's sample and whole image are scored side by side (see above).
const SHARED_LANES = 2;
let sharedPool: PerceptualScorePool | null = null;

/** Scores on a process-wide pool of two lanes, each started on first use. */
export function perceptualScore(reference: RawImage, candidate: RawImage): Promise<number> {
  sharedPool ??= new PerceptualScorePool({ size: SHARED_LANES });
  return sharedPool.score(reference, candidate);
}

/** A scorer of candidates against one reference on the process-wide pool (see PerceptualScorePool.referenceScorer). */
export function perceptualScorer(reference: RawImage): ReferenceScorer {
  sharedPool ??= new PerceptualScorePool({ size: SHARED_LANES });
  return sharedPool.referenceScorer(reference);
}
