// Worker threads that each run one job at a time, for work that would hold the event loop or
// whose memory must be given back by ending the thread (mupdf's WASM heap only grows).
// A worker answers a request `{ id, ...payload }` with one message carrying the same id.
import { Worker, type Transferable } from "node:worker_threads";

export interface WorkerPoolOptions<Reply> {
  workerUrl: URL;
  /** Names the pool in the errors it rejects jobs with. */
  name: string;
  /** Worker threads running jobs in parallel. */
  size?: number;
  /** Reads a worker's message; one it cannot read (it throws) fails the job and keeps the worker. */
  readReply: (message: unknown) => Reply;
  /** Whether the worker that answered `reply`, its `jobs`-th job, is replaced before it runs another. */
  retireAfter?: (reply: Reply, jobs: number) => boolean;
  /** Idle workers do not keep the process alive (a pool used now and then by a short-lived process). */
  unrefWhenIdle?: boolean;
}

interface Slot {
  worker: Worker | null;
  jobs: number;
  busy: boolean;
}

interface QueuedJob<Payload, Reply> {
  payload: Payload;
  transfer: readonly Transferable[];
  resolve: (reply: Reply) => void;
  reject: (error: unknown) => void;
}

export class WorkerPool<Payload extends object, Reply extends { id: number }> {
  readonly #options: WorkerPoolOptions<Reply>;
  readonly #slots: Slot[];
  readonly #queue: QueuedJob<Payload, Reply>[] = [];
  #nextId = 1;
  #workersStarted = 0;
  #closed = false;

  constructor(options: WorkerPoolOptions<Reply>) {
    this.#options = options;
    this.#slots = Array.from({ length: Math.max(1, options.size ?? 1) }, () => ({ worker: null, jobs: 0, busy: false }));
  }

  /** Workers started so far, replacements included. */
  get workersStarted(): number {
    return this.#workersStarted;
  }

  /** Runs one job; `transfer` moves those buffers to the worker instead of copying them. */
  run(payload: Payload, transfer: readonly Transferable[] = []): Promise<Reply> {
    if (this.#closed) return Promise.reject(new Error(`${this.#options.name} closed`));
    return new Promise((resolve, reject) => {
      this.#queue.push({ payload, transfer, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.splice(0)) queued.reject(new Error(`${this.#options.name} closed`));
    await Promise.all(this.#slots.map((slot) => this.#retire(slot)));
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      const queued = this.#queue.shift();
      if (queued === undefined) return;
      this.#run(slot, queued);
    }
  }

  #run(slot: Slot, queued: QueuedJob<Payload, Reply>): void {
    slot.busy = true;
    const worker = slot.worker ?? this.#start(slot);
    const id = this.#nextId++;
    if (this.#options.unrefWhenIdle) worker.ref();
    const finish = (settle: () => void, retire: boolean) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (this.#options.unrefWhenIdle) worker.unref();
      slot.busy = false;
      const retired = retire ? this.#retire(slot) : Promise.resolve();
      settle();
      void retired.then(() => this.#dispatch());
    };
    const onMessage = (message: unknown) => {
      let reply: Reply;
      try {
        reply = this.#options.readReply(message);
      } catch (error) {
        return finish(() => queued.reject(error), false);
      }
      if (reply.id !== id) return;
      slot.jobs++;
      finish(() => queued.resolve(reply), this.#options.retireAfter?.(reply, slot.jobs) ?? false);
    };
    // A worker that failed (out of memory, say) is not handed the next job.
    const onError = (error: Error) => finish(() => queued.reject(error), true);
    const onExit = (code: number) => finish(() => queued.reject(new Error(`${this.#options.name}: a worker exited with code ${code}`)), true);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ ...queued.payload, id }, queued.transfer);
  }

  #start(slot: Slot): Worker {
    const worker = new Worker(this.#options.workerUrl);
    if (this.#options.unrefWhenIdle) worker.unref();
    // An idle worker that dies is replaced on the next job; a running job's failure is handled in #run.
    worker.on("error", () => undefined);
    worker.once("exit", () => {
      if (slot.worker === worker) slot.worker = null;
    });
    slot.worker = worker;
    slot.jobs = 0;
    this.#workersStarted++;
    return worker;
  }

  async #retire(slot: Slot): Promise<void> {
    const worker = slot.worker;
    slot.worker = null;
    slot.jobs = 0;
    if (worker !== null) await worker.terminate();
  }
}
