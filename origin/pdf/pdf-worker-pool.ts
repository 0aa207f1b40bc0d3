// Runs analyze and compress in worker threads and bounds memory by recycling:
// a worker is replaced after maxJobsPerWorker jobs, or as soon as a job leaves its
// mupdf WASM heap above maxWasmHeapBytes (the heap never shrinks inside a thread).
import { Worker } from "node:worker_threads";
import type { PdfAnalyzeOptions, PdfCompressOptions } from "../../contracts/pdf-options.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import type { PdfCompressResult } from "./compress-pdf.ts";
import { outcomeToResult } from "./pdf-jobs.ts";
import type { PdfJob } from "./pdf-jobs.ts";
import type { PdfWorkerRequest, PdfWorkerResponse } from "./pdf-worker.ts";

export interface PdfWorkerPoolOptions {
  /** Worker threads running jobs in parallel. */
  size?: number;
  maxJobsPerWorker?: number;
  maxWasmHeapBytes?: number;
  /**
   * Move each input's memory to the worker instead of copying it: the caller's array is empty
   * after the call. The server sets it, so a 150 MB upload is not held twice while it is compressed.
   */
  transferInput?: boolean;
}

export interface PdfWorkerPoolStats {
  workersStarted: number;
  jobsRun: number;
  /** WASM heap of the worker after each job, in completion order. */
  wasmHeapBytesAfterJob: number[];
}

interface Slot {
  worker: Worker | null;
  jobs: number;
  busy: boolean;
}

interface QueuedJob {
  job: PdfJob;
  resolve: (value: PdfAnalysis | PdfCompressResult) => void;
  reject: (error: unknown) => void;
}

const WORKER_URL = new URL("./pdf-worker.ts", import.meta.url);

/** What the routes need of a pool; a test can hand in its own. */
export type PdfJobRunner = Pick<PdfWorkerPool, "analyze" | "compress">;

export class PdfWorkerPool {
  readonly #maxJobsPerWorker: number;
  readonly #maxWasmHeapBytes: number;
  readonly #transferInput: boolean;
  readonly #slots: Slot[];
  readonly #queue: QueuedJob[] = [];
  readonly #stats: PdfWorkerPoolStats = { workersStarted: 0, jobsRun: 0, wasmHeapBytesAfterJob: [] };
  #nextId = 1;
  #closed = false;

  constructor(options: PdfWorkerPoolOptions = {}) {
    this.#maxJobsPerWorker = options.maxJobsPerWorker ?? 16;
    this.#maxWasmHeapBytes = options.maxWasmHeapBytes ?? 768 * 1024 * 1024;
    this.#transferInput = options.transferInput ?? false;
    this.#slots = Array.from({ length: Math.max(1, options.size ?? 1) }, () => ({ worker: null, jobs: 0, busy: false }));
  }

  analyze(input: Uint8Array, options: PdfAnalyzeOptions): Promise<PdfAnalysis> {
    return this.#submit({ kind: "analyze", input, options }) as Promise<PdfAnalysis>;
  }

  compress(input: Uint8Array, options: PdfCompressOptions): Promise<PdfCompressResult> {
    return this.#submit({ kind: "compress", input, options }) as Promise<PdfCompressResult>;
  }

  stats(): PdfWorkerPoolStats {
    return { ...this.#stats, wasmHeapBytesAfterJob: [...this.#stats.wasmHeapBytesAfterJob] };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.splice(0)) queued.reject(new Error("PDF worker pool closed"));
    await Promise.all(this.#slots.map((slot) => this.#retire(slot)));
  }

  #submit(job: PdfJob): Promise<PdfAnalysis | PdfCompressResult> {
    if (this.#closed) return Promise.reject(new Error("PDF worker pool closed"));
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      this.#dispatch();
    });
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      const queued = this.#queue.shift();
      if (queued === undefined) return;
      this.#run(slot, queued);
    }
  }

  #run(slot: Slot, queued: QueuedJob): void {
    slot.busy = true;
    const worker = slot.worker ?? this.#start(slot);
    const id = this.#nextId++;
    const finish = (settle: () => void, recycle: boolean) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      slot.busy = false;
      const retired = recycle ? this.#retire(slot) : Promise.resolve();
      settle();
      void retired.then(() => this.#dispatch());
    };
    const onMessage = (response: PdfWorkerResponse) => {
      if (response.id !== id) return;
      slot.jobs++;
      this.#stats.jobsRun++;
      this.#stats.wasmHeapBytesAfterJob.push(response.wasmHeapBytes);
      const recycle = slot.jobs >= this.#maxJobsPerWorker || response.wasmHeapBytes > this.#maxWasmHeapBytes;
      finish(() => {
        try {
          queued.resolve(outcomeToResult(response.outcome));
        } catch (error) {
          queued.reject(error);
        }
      }, recycle);
    };
    const onError = (error: Error) => finish(() => queued.reject(error), true);
    const onExit = (code: number) => finish(() => queued.reject(new Error(`PDF worker exited with code ${code}`)), true);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    const request: PdfWorkerRequest = { id, job: queued.job };
    const input = queued.job.input.buffer;
    // The queued job is settled by the worker's answer alone, so nothing here reads the input again.
    worker.postMessage(request, this.#transferInput && input instanceof ArrayBuffer ? [input] : []);
  }

  #start(slot: Slot): Worker {
    const worker = new Worker(WORKER_URL);
    // An idle worker that dies is simply replaced on the next job.
    worker.on("error", () => undefined);
    worker.once("exit", () => {
      if (slot.worker === worker) slot.worker = null;
    });
    slot.worker = worker;
    slot.jobs = 0;
    this.#stats.workersStarted++;
    return worker;
  }

  async #retire(slot: Slot): Promise<void> {
    const worker = slot.worker;
    slot.worker = null;
    slot.jobs = 0;
    if (worker !== null) await worker.terminate();
  }
}
