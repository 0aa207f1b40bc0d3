// Face detection thread entry. The model runs as WebAssembly on the JavaScript thread that calls it
// (about 60 ms a picture): in the main process it would hold the event loop, every other call's I/O,
// as long. Each thread loads the model once, on its first picture.
import { parentPort } from "node:worker_threads";
import { outcomeOf, type JobOutcome } from "../../worker-pool/job-outcome.ts";
import { facesIn, type DetectedFace, type RgbPixels } from "./face-model.ts";

export interface FaceRequest extends RgbPixels {
  id: number;
}

export interface FaceReply {
  id: number;
  outcome: JobOutcome<DetectedFace[]>;
}

async function answer(request: FaceRequest): Promise<void> {
  const reply: FaceReply = { id: request.id, outcome: await outcomeOf(() => facesIn(request)) };
  parentPort?.postMessage(reply);
}

parentPort?.on("message", (request: FaceRequest) => void answer(request));
