// Worker thread entry: scores one pair at a time, so a metric run of several hundred
// milliseconds never holds the origin's event loop.
//
// A quality search scores many candidates against one reference, whose side of the metric
// (XYB planes, local means and squares at every scale) costs most of a score to compute. A
// request naming a `referenceKey` therefore keeps the prepared reference here, and the next
// request with that key scores against it. Kept references are bounded in pixels, least recently
// used dropped first; a reference larger than the bound is prepared, used and not kept.
import { parentPort } from "node:worker_threads";
import type { RawImage } from "./raw-image.ts";
import { prepareReference, scoreAgainst, ssimulacra2, type Ssimulacra2Reference } from "./ssimulacra2.ts";

export interface ScoreRequest {
  id: number;
  reference: RawImage;
  candidate: RawImage;
  /** Names the reference across requests (unique per search), so its side of the metric is computed once. */
  referenceKey?: string;
}

// About 33 bytes a pixel are kept per reference (ssimulacra2.ts): 3 MP is about 100 MB, one 2 MP
// search's whole image and its sample.
const KEPT_REFERENCE_PIXELS = 3_000_000;
const kept = new Map<string, Ssimulacra2Reference>();

function preparedFor(key: string, reference: RawImage): Ssimulacra2Reference {
  const known = kept.get(key);
  if (known !== undefined && known.width === reference.width && known.height === reference.height) {
    // Most recently used last.
    kept.delete(key);
    kept.set(key, known);
    return known;
  }
  const prepared = prepareReference(reference);
  const pixels = reference.width * reference.height;
  if (pixels > KEPT_REFERENCE_PIXELS) return prepared;
  let total = pixels;
  for (const other of kept.values()) total += other.width * other.height;
  for (const [oldest, other] of kept) {
    if (total <= KEPT_REFERENCE_PIXELS) break;
    kept.delete(oldest);
    total -= other.width * other.height;
  }
  kept.set(key, prepared);
  return prepared;
}

parentPort?.on("message", (request: ScoreRequest) => {
  try {
    const { reference, candidate, referenceKey } = request;
    const score = referenceKey === undefined ? ssimulacra2(reference, candidate) : scoreAgainst(preparedFor(referenceKey, reference), candidate);
    parentPort?.postMessage({ id: request.id, score });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
