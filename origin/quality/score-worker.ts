// Worker thread entry: scores one pair at a time, so a metric run of several hundred
// milliseconds never holds the origin's event loop.
import { parentPort } from "node:worker_threads";
import type { RawImage } from "./raw-image.ts";
import { ssimulacra2 } from "./ssimulacra2.ts";

export interface ScoreRequest {
  id: number;
  reference: RawImage;
  candidate: RawImage;
}

parentPort?.on("message", (request: ScoreRequest) => {
  try {
    parentPort?.postMessage({ id: request.id, score: ssimulacra2(request.reference, request.candidate) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
