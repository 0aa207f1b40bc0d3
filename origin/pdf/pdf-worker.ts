// Worker thread entry. mupdf's WASM heap only grows, so PDF work runs here and
// the pool replaces the whole thread (and with it the heap) every few jobs.
// The Emscripten module object is handed in before mupdf loads so the heap size
// (HEAPU8) can be reported after each job.
import { parentPort } from "node:worker_threads";
import type { PdfJob, PdfJobOutcome } from "./pdf-jobs.ts";

export interface PdfWorkerRequest {
  id: number;
  job: PdfJob;
}

export interface PdfWorkerResponse {
  id: number;
  outcome: PdfJobOutcome;
  wasmHeapBytes: number;
}

const wasmModule: { HEAPU8?: Uint8Array } = {};
Object.assign(globalThis, { $libmupdf_wasm_Module: wasmModule });
const { runPdfJob } = await import("./pdf-jobs.ts");

function transferablesOf(outcome: PdfJobOutcome): ArrayBuffer[] {
  if (!outcome.ok || !("bytes" in outcome.result)) return [];
  const buffer = outcome.result.bytes.buffer;
  return buffer instanceof ArrayBuffer ? [buffer] : [];
}

async function answer(request: PdfWorkerRequest): Promise<void> {
  const outcome = await runPdfJob(request.job);
  const response: PdfWorkerResponse = { id: request.id, outcome, wasmHeapBytes: wasmModule.HEAPU8?.buffer.byteLength ?? 0 };
  parentPort?.postMessage(response, transferablesOf(outcome));
}

// runPdfJob answers every failure as an outcome; anything that still rejects is a bug, left
// unhandled so the worker dies and its pool replaces it.
parentPort?.on("message", (request: PdfWorkerRequest) => void answer(request));
