// The face model: face-api's tiny_face_detector on TensorFlow.js's WebAssembly backend, run by the
// detection threads (face-worker.ts). Its weights and the backend's .wasm binaries are read from
// node_modules (both ship in their npm tarballs), so nothing is fetched at install or run time.
// Licences and the choice of model: origin/image/faces/README.md.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
type FaceApi = typeof import("@vladmandic/face-api/dist/face-api.node-wasm.js");
type WasmBackend = typeof import("@tensorflow/tfjs-backend-wasm");
// The module face-api's build requires (its own types declare a part of it): the backend is set here.
type TensorFlow = typeof import("@tensorflow/tfjs");

/** The side the picture is shrunk to before detection: the model's input size (measured in README.md). */
export const DETECTION_SIDE = 416;
// Below this score a box is more often a pattern than a face (README.md).
const MIN_SCORE = 0.5;

/** A face, as fractions of the picture's width and height from its top left, and the model's score (0 to 1). */
export interface DetectedFace {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** A picture's RGB pixels, 3 bytes a pixel, at most DETECTION_SIDE a side. */
export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

let loaded: Promise<FaceApi> | null = null;

/** Loads the backend and the weights once per thread; every call after the first shares them. */
export function faceModel(): Promise<FaceApi> {
  loaded ??= loadModel();
  return loaded;
}

async function loadModel(): Promise<FaceApi> {
  const tf = require("@tensorflow/tfjs") as TensorFlow;
  const faceapi = require("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi;
  const wasm = require("@tensorflow/tfjs-backend-wasm") as WasmBackend;
  // The directory holding tfjs-backend-wasm*.wasm, beside the backend's Node entry.
  wasm.setWasmPaths(`${path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))}/`);
  if (!(await tf.setBackend("wasm"))) throw new Error("TensorFlow.js's WebAssembly backend did not start");
  await tf.ready();
  const models = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "model");
  const manifest = JSON.parse(fs.readFileSync(path.join(models, "tiny_face_detector_model-weights_manifest.json"), "utf8")) as { weights: Parameters<FaceApi["tf"]["io"]["decodeWeights"]>[1] }[];
  const weights = fs.readFileSync(path.join(models, "tiny_face_detector_model.bin"));
  const buffer = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength);
  faceapi.nets.tinyFaceDetector.loadFromWeightMap(faceapi.tf.io.decodeWeights(buffer, manifest.flatMap((group) => group.weights)));
  return faceapi;
}

/** The faces in `pixels`, largest first. */
export async function facesIn(pixels: RgbPixels): Promise<DetectedFace[]> {
  const faceapi = await faceModel();
  const tensor = faceapi.tf.tensor3d(pixels.data, [pixels.height, pixels.width, 3], "int32");
  try {
    const found = await faceapi.detectAllFaces(tensor, new faceapi.TinyFaceDetectorOptions({ inputSize: DETECTION_SIDE, scoreThreshold: MIN_SCORE }));
    return found
      .map(({ relativeBox: box, score }) => clampedFace(box.x, box.y, box.width, box.height, score))
      .filter((face): face is DetectedFace => face !== null)
      .sort((a, b) => b.width * b.height - a.width * a.height);
  } finally {
    tensor.dispose();
  }
}

// The model's boxes may reach past the picture; a face is what lies inside it.
function clampedFace(x: number, y: number, width: number, height: number, score: number): DetectedFace | null {
  const left = Math.max(0, x);
  const top = Math.max(0, y);
  const right = Math.min(1, x + width);
  const bottom = Math.min(1, y + height);
  if (right <= left || bottom <= top) return null;
  return { x: left, y: top, width: right - left, height: bottom - top, score };
}
