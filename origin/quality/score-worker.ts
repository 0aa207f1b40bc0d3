// Worker thread entry: scores one pair at a time, so a metric run of several hundred
// milliseconds never holds the origin's event loop. It answers a share's terms, not a score: the
// pool adds up the shares of a score split across lanes (ssimulacra2-terms.ts).
//
// A quality search scores many candidates against one reference, whose side of the metric
// (XYB planes, local means and squares at every scale) costs most of a score to compute. A
// request naming a `referenceKey` therefore keeps the prepared reference here, and the next
// request with that key scores against it. Kept references are bounded in bytes, least recently
// used dropped first; a reference larger than the bound is prepared, used and not kept.
import { parentPort } from "node:worker_threads";
import type { RawImage } from "./raw-image.ts";
import { prepareReference, scaleTerms, type Ssimulacra2Reference } from "./ssimulacra2.ts";
import type { ScaleShare } from "./ssimulacra2-terms.ts";
import { decodeWebpCandidate, type WebpCandidate } from "./webp-candidate.ts";

export interface ScoreRequest {
  id: number;
  /**
   * Null when this worker was sent the reference before, under `referenceKey`: the request is then
   * answered `{ missing: true }` if the reference is no longer kept (dropped, or the worker replaced).
   */
  reference: RawImage | null;
  /**
   * Decoded pixels, or a WebP the worker decodes itself (webp-candidate.ts). Null prepares and
   * keeps the named reference only, so its first candidate is only compared.
   */
  candidate: RawImage | WebpCandidate | null;
  /** Names the reference across requests (unique per search), so its side of the metric is computed once. */
  referenceKey?: string;
  /** The scales to compute (all unless the score is split across lanes). */
  share: ScaleShare;
}

// A reference keeps about 33 bytes a pixel up to 4 MP and about 9 above, streaming its finest
// scale (ssimulacra2.ts): one 2 MP search's whole image and sample keep about 72 MB, a 12 MP
// search's about 112 MB, so either keeps its reference across its candidates.
const KEPT_REFERENCE_BYTES = 120 * 1024 * 1024;
const kept = new Map<string, Ssimulacra2Reference>();

/** The reference kept under `key`, now the most recently used; undefined when it is not kept. */
function keptUnder(key: string): Ssimulacra2Reference | undefined {
  const known = kept.get(key);
  if (known === undefined) return undefined;
  kept.delete(key);
  kept.set(key, known);
  return known;
}

function preparedFor(key: string, reference: RawImage, share: ScaleShare): Ssimulacra2Reference {
  const known = keptUnder(key);
  if (known !== undefined && known.width === reference.width && known.height === reference.height) return known;
  const prepared = prepareReference(reference, { share });
  if (prepared.retainedBytes > KEPT_REFERENCE_BYTES) return prepared;
  let total = prepared.retainedBytes;
  for (const other of kept.values()) total += other.retainedBytes;
  for (const [oldest, other] of kept) {
    if (total <= KEPT_REFERENCE_BYTES) break;
    kept.delete(oldest);
    total -= other.retainedBytes;
  }
  kept.set(key, prepared);
  return prepared;
}

/** The candidate's pixels: as sent, or decoded here. */
function pixelsOf(candidate: RawImage | WebpCandidate): RawImage | Promise<RawImage> {
  return "webp" in candidate ? decodeWebpCandidate(candidate) : candidate;
}

// The pool sends a worker its next request only after the reply to the last, so a decode awaited here never interleaves two.
parentPort?.on("message", (request: ScoreRequest) => void answer(request));

async function answer(request: ScoreRequest): Promise<void> {
  try {
    const { reference, candidate, referenceKey, share } = request;
    if (referenceKey === undefined) {
      if (candidate === null || reference === null) throw new TypeError("a reference is prepared, or named, only under a key");
      parentPort?.postMessage({ id: request.id, terms: scaleTerms(prepareReference(reference, { share }), await pixelsOf(candidate)) });
      return;
    }
    const key = `${referenceKey}/${share}`;
    // A prepare-only request for a reference over the bound (above about 13 MP) is wasted: it is prepared again with each candidate.
    const prepared = reference === null ? keptUnder(key) : preparedFor(key, reference, share);
    if (prepared === undefined) {
      parentPort?.postMessage({ id: request.id, missing: true });
      return;
    }
    parentPort?.postMessage(candidate === null ? { id: request.id, prepared: true } : { id: request.id, terms: scaleTerms(prepared, await pixelsOf(candidate)) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
}
