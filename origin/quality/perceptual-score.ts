// SSIMULACRA 2 off the event loop: a few worker threads ("lanes"), each scoring one pair at a time.
// Memory per running job is its inputs (copied to the worker, 3 or 4 bytes a pixel each: the
// candidate, and a scorer's reference the first time its lane gets it) plus the metric's own: about 33 bytes a pixel for the prepared reference (about 9 above 4 MP) and a few rows for
// the candidate (see ssimulacra2.ts). A search scores through `referenceScorer`, whose
// reference one lane prepares once and keeps (up to 120 MB of kept references a worker,
// score-worker.ts); every job of that scorer goes to that lane, so the reference is never
// prepared twice. Scorers are dealt to lanes in turn, so a search's sample and whole image sit on
// different lanes and the whole image's side can be prepared while the sample is probed. A split
// scorer also puts its coarser scales on the next lane (see referenceScorer).
// Idle workers do not keep the process alive.
import { z } from "@hono/zod-openapi";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";
import { scoreOfTerms, type ScaleShare, type ScaleTerms } from "./ssimulacra2-terms.ts";
import type { WebpCandidate } from "./webp-candidate.ts";
import { WorkerPool } from "../worker-pool/worker-pool.ts";

const WORKER_URL = new URL("./score-worker.ts", import.meta.url);

/** A score worker's reply (score-worker.ts), parsed where it crosses the thread boundary. */
export const scoreReplySchema = z.union([
  z.object({ id: z.number(), terms: z.array(z.array(z.array(z.array(z.number()).nullable()))) }),
  z.object({ id: z.number(), prepared: z.literal(true) }),
  z.object({ id: z.number(), missing: z.literal(true) }),
  z.object({ id: z.number(), error: z.string() }),
]);
export type ScoreReply = z.infer<typeof scoreReplySchema>;
type Lane = WorkerPool<Omit<ScoreRequest, "id">, ScoreReply>;

/** SSIMULACRA 2 of a candidate against the scorer's reference. */
export interface ReferenceScorer {
  /** A WebP candidate is decoded in the worker, by each lane of a split scorer. */
  (candidate: RawImage | WebpCandidate): Promise<number>;
  /**
   * Prepares and keeps the reference's side on the lane dealt now, so a later candidate is only
   * compared there. A split scorer's coarser scales wait for prepareOtherLane, or else its first
   * candidate, which leaves the next lane free for the caller's other scorer until then.
   */
  prepare(): Promise<void>;
  /**
   * Prepares a split scorer's coarser scales on their lane (nothing for a scorer on one lane), for
   * a caller that has left that lane free. Prepared with the first candidate instead, they made
   * that score about half as long again as the next (1200x1800: 124-148 ms against 56-91).
   */
  prepareOtherLane(): Promise<void>;
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
    return scoreOfTerms([termsOf(await idlest.run({ reference, candidate, share: "all" }))]);
  }

  /**
   * Scores candidates against one reference, its side of the metric computed once in one lane's
   * worker and kept there for the scorer's later candidates (prepared again if the worker dropped it).
   * `split` spreads each score over two lanes, the finest scale on the lane dealt and the coarser
   * ones on the next: the same score in about two thirds of the time where both are free.
   */
  referenceScorer(reference: RawImage, options: { split?: boolean } = {}): ReferenceScorer {
    const referenceKey = `reference-${++referenceSerial}`;
    const dealt = this.#nextLane++ % this.#lanes.length;
    const split = options.split === true && this.#lanes.length > 1;
    const shares: { lane: Lane; share: ScaleShare }[] = split
      ? [
          { lane: this.#lanes[dealt]!, share: "finest" },
          { lane: this.#lanes[(dealt + 1) % this.#lanes.length]!, share: "coarser" },
        ]
      : [{ lane: this.#lanes[dealt]!, share: "all" }];
    // A lane sent the reference once is sent only the candidate after that, and the reference
    // again only when the worker no longer keeps it: copied with every score, it took a
    // comparison at 1600x1067 from 110 ms in-process to 133 through one lane.
    const sentTo = new Set<Lane>();
    const run = async (lane: Lane, candidate: RawImage | WebpCandidate | null, share: ScaleShare): Promise<ScoreReply> => {
      if (candidate !== null && sentTo.has(lane)) {
        const reply = await lane.run({ reference: null, candidate, referenceKey, share });
        if (!("missing" in reply)) return reply;
      }
      sentTo.add(lane);
      return lane.run({ reference, candidate, referenceKey, share });
    };
    const scorer = async (candidate: RawImage | WebpCandidate) => scoreOfTerms(await Promise.all(shares.map(async ({ lane, share }) => termsOf(await run(lane, candidate, share)))));
    const prepareShare = async ({ lane, share }: { lane: Lane; share: ScaleShare }) => {
      const reply = await run(lane, null, share);
      if ("error" in reply) throw new RangeError(reply.error);
    };
    const prepare = () => prepareShare(shares[0]!);
    const prepareOtherLane = async () => {
      if (shares[1] !== undefined) await prepareShare(shares[1]);
    };
    return Object.assign(scorer, { prepare, prepareOtherLane });
  }

  close(): Promise<void> {
    return Promise.all(this.#lanes.map((lane) => lane.close())).then(() => undefined);
  }
}

function waiting(lane: Lane): number {
  const { busy, queued } = lane.load();
  return busy + queued;
}

function termsOf(reply: ScoreReply): ScaleTerms {
  if ("error" in reply) throw new RangeError(reply.error);
  if (!("terms" in reply)) throw new Error("perceptual score pool: a score request was answered without its terms");
  return reply.terms;
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
export function perceptualScorer(reference: RawImage, options: { split?: boolean } = {}): ReferenceScorer {
  sharedPool ??= new PerceptualScorePool({ size: SHARED_LANES });
  return sharedPool.referenceScorer(reference, options);
}
