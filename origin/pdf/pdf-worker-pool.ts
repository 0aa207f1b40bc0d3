// Runs analyze, compress and page drawing in worker threads and bounds memory by recycling:
// a worker is replaced after maxJobsPerWorker jobs, or as soon as a job leaves its
// mupdf WASM heap above maxWasmHeapBytes (the heap never shrinks inside a thread).
import { z } from "@hono/zod-openapi";
import type { PdfAnalyzeOptions, PdfCompressOptions } from "../../contracts/pdf-options.ts";
import type { PdfAnalysis } from "./analyze-pdf.ts";
import type { PdfCompressResult } from "./compress-pdf.ts";
import type { DrawnPage, PageRequest } from "./draw-page.ts";
// Types only from pdf-jobs.ts: its runners load MuPDF, which belongs in the worker threads, not in
// every origin process that merely hands them a job.
import type { PdfJob, PdfJobOutcome, PdfJobResult } from "./pdf-jobs.ts";
import type { PdfWorkerRequest } from "./pdf-worker.ts";
import type { JobTicket } from "../worker-pool/job-ticket.ts";
import { resultOf } from "../worker-pool/job-outcome.ts";
import { WorkerPool, type WorkerPoolLoad } from "../worker-pool/worker-pool.ts";

export interface PdfWorkerPoolOptions {
  /** Worker threads running jobs in parallel. */
  size?: number;
  /** Workers one account may hold while another account's job waits (default: all but one). */
  maxPerAccount?: number;
  maxJobsPerWorker?: number;
  maxWasmHeapBytes?: number;
  /**
   * Move each input's memory to the worker instead of copying it: the caller's array is empty
   * after the call. The server sets it, so a 150 MB upload is not held twice while it is compressed.
   */
  transferInput?: boolean;
  /** Idle workers do not keep the process alive (a pool started by the first call that needs it). */
  unrefWhenIdle?: boolean;
}

export interface PdfWorkerPoolStats {
  workersStarted: number;
  jobsRun: number;
  /** WASM heap of the worker after each job, in completion order. */
  wasmHeapBytesAfterJob: number[];
}

// The outcome is built by our own worker module from the same types; only its envelope is checked.
const pdfWorkerResponseSchema = z.object({
  id: z.number(),
  outcome: z.custom<PdfJobOutcome>((value) => typeof value === "object" && value !== null),
  wasmHeapBytes: z.number(),
});

const WORKER_URL = new URL("./pdf-worker.ts", import.meta.url);

/** What the routes need of a pool; a test can hand in its own. */
export type PdfJobRunner = Pick<PdfWorkerPool, "analyze" | "compress" | "load">;

export class PdfWorkerPool {
  readonly #pool: WorkerPool<Omit<PdfWorkerRequest, "id">, z.infer<typeof pdfWorkerResponseSchema>>;
  readonly #transferInput: boolean;
  readonly #jobStats: Omit<PdfWorkerPoolStats, "workersStarted"> = { jobsRun: 0, wasmHeapBytesAfterJob: [] };

  constructor(options: PdfWorkerPoolOptions = {}) {
    const maxJobsPerWorker = options.maxJobsPerWorker ?? 16;
    const maxWasmHeapBytes = options.maxWasmHeapBytes ?? 768 * 1024 * 1024;
    this.#transferInput = options.transferInput ?? false;
    this.#pool = new WorkerPool({
      workerUrl: WORKER_URL,
      name: "PDF worker pool",
      size: options.size,
      maxPerAccount: options.maxPerAccount ?? Math.max(1, (options.size ?? 1) - 1),
      readReply: (message) => pdfWorkerResponseSchema.parse(message),
      retireAfter: (response, jobs) => jobs >= maxJobsPerWorker || response.wasmHeapBytes > maxWasmHeapBytes,
      unrefWhenIdle: options.unrefWhenIdle,
    });
  }

  /** `ticket` names the account whose turn the job waits for and the deadline its worker is terminated at. */
  analyze(input: Uint8Array, options: PdfAnalyzeOptions, ticket: JobTicket = {}): Promise<PdfAnalysis> {
    return this.#submit({ kind: "analyze", input, options }, ticket) as Promise<PdfAnalysis>;
  }

  compress(input: Uint8Array, options: PdfCompressOptions, ticket: JobTicket = {}): Promise<PdfCompressResult> {
    return this.#submit({ kind: "compress", input, options }, ticket) as Promise<PdfCompressResult>;
  }

  /** One page drawn as a PNG (draw-page.ts). */
  drawPage(input: Uint8Array, request: PageRequest, ticket: JobTicket = {}): Promise<DrawnPage> {
    return this.#submit({ kind: "page", input, options: request }, ticket) as Promise<DrawnPage>;
  }

  load(): WorkerPoolLoad {
    return this.#pool.load();
  }

  stats(): PdfWorkerPoolStats {
    return { workersStarted: this.#pool.workersStarted, jobsRun: this.#jobStats.jobsRun, wasmHeapBytesAfterJob: [...this.#jobStats.wasmHeapBytesAfterJob] };
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  async #submit(job: PdfJob, ticket: JobTicket): Promise<PdfJobResult> {
    const input = job.input.buffer;
    // The job is settled by the worker's answer alone, so nothing here reads the input again.
    const response = await this.#pool.run({ job }, this.#transferInput && input instanceof ArrayBuffer ? [input] : [], ticket);
    this.#jobStats.jobsRun++;
    this.#jobStats.wasmHeapBytesAfterJob.push(response.wasmHeapBytes);
    return resultOf(response.outcome, "PDF worker job");
  }
}
