// The face detector as the steps call it: the picture shrunk by sharp to the model's input size,
// then the model (face-model.ts) in a detection thread (face-worker.ts), so the event loop stays free.
import type { z } from "@hono/zod-openapi";
import type { Sharp } from "sharp";
import { currentTicket } from "../../worker-pool/deadline.ts";
import { outcomeReplySchema, resultOf } from "../../worker-pool/job-outcome.ts";
import { poolSizes } from "../../worker-pool/pool-sizes.ts";
import { WorkerPool } from "../../worker-pool/worker-pool.ts";
import { DETECTION_SIDE, type DetectedFace } from "./face-model.ts";
import type { FaceRequest } from "./face-worker.ts";

export type { DetectedFace } from "./face-model.ts";

const faceReplySchema = outcomeReplySchema<DetectedFace[]>();

let facePool: WorkerPool<Omit<FaceRequest, "id">, z.infer<typeof faceReplySchema>> | undefined;
let detections = 0;

/** The detection threads, started by the first picture: as many as compute slots, each detection holds one. */
function detectors() {
  const size = poolSizes().computeSlots;
  facePool ??= new WorkerPool({
    workerUrl: new URL("./face-worker.ts", import.meta.url),
    name: "face detection pool",
    size,
    maxPerAccount: size,
    readReply: (message) => faceReplySchema.parse(message),
    unrefWhenIdle: true,
  });
  return facePool;
}

/** How many pictures this process has run the model on: what the memo's test counts. */
export function detectionsRun(): number {
  return detections;
}

/** The faces in `picture` (any size: it is shrunk to the model's input size first), largest first. */
export async function detectFaces(picture: Sharp): Promise<DetectedFace[]> {
  const { data, info } = await picture
    .resize(DETECTION_SIDE, DETECTION_SIDE, { fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  detections++;
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const reply = await detectors().run({ data: pixels, width: info.width, height: info.height }, [], currentTicket());
  return resultOf(reply.outcome, "Face detection");
}
