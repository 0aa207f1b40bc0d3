// Worker threads that each run one job at a time, for work that would hold the event loop or
// whose memory must be given back by ending the thread (mupdf's WASM heap only grows).
// A worker answers a request `{ id, ...payload }` with one message carrying the same id.
// Jobs wait per account and take turns (fair-queue.ts). A job past its deadline is answered
// `processing_timeout` and its worker is terminated (the only way to stop work inside a thread)
// and replaced when the next job needs it.
import type { EventEmitter } from "node:events";
import { Worker, type Transferable } from "node:worker_threads";
import { FairQueue } from "./fair-queue.ts";
import { busyTimeout, processingTimeout, SHARED_ACCOUNT, type JobTicket } from "./job-ticket.ts";

/** What the pool needs of a worker: a thread (the default) or a child process (child-process-worker.ts). */
export interface PoolWorker extends EventEmitter {
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  terminate(): Promise<unknown>;
  ref(): void;
  unref(): void;
}

export interface WorkerPoolOptions<Reply> {
  workerUrl: URL;
  /** Starts a worker running `workerUrl` (default: a worker thread). */
  startWorker?: (workerUrl: URL) => PoolWorker;
  /** Names the pool in the errors it rejects jobs with. */
  name: string;
  /** Worker threads running jobs in parallel. */
  size?: number;
  /**
   * Workers one account may hold at once while another account's job waits (default: all).
   * Below `size`, an account's giant jobs always leave a worker to the others.
   */
  maxPerAccount?: number;
  /** Reads a worker's message; one it cannot read (it throws) fails the job and keeps the worker. */
  readReply: (message: unknown) => Reply;
  /** Whether the worker that answered `reply`, its `jobs`-th job, is replaced before it runs another. */
  retireAfter?: (reply: Reply, jobs: number) => boolean;
  /** Idle workers do not keep the process alive (a pool used now and then by a short-lived process). */
  unrefWhenIdle?: boolean;
}

export interface WorkerPoolLoad {
  size: number;
  busy: number;
  queued: number;
  /** Workers terminated at a job's deadline since the pool started. */
  timedOut: number;
}

interface Slot {
  worker: PoolWorker | null;
  jobs: number;
  busy: boolean;
}

interface QueuedJob<Payload, Reply> {
  payload: Payload;
  transfer: readonly Transferable[];
  account: string;
  deadlineAt: number | null;
  /** Rejects a job still waiting at its deadline. */
  expiry: ReturnType<typeof setTimeout> | null;
  resolve: (reply: Reply) => void;
  reject: (error: unknown) => void;
}

export class WorkerPool<Payload extends object, Reply extends { id: number }> {
  readonly #options: WorkerPoolOptions<Reply>;
  readonly #slots: Slot[];
  readonly #queue = new FairQueue<QueuedJob<Payload, Reply>>();
  readonly #runningByAccount = new Map<string, number>();
  readonly #maxPerAccount: number;
  #nextId = 1;
  #workersStarted = 0;
  #timedOut = 0;
  #closed = false;

  constructor(options: WorkerPoolOptions<Reply>) {
    this.#options = options;
    this.#slots = Array.from({ length: Math.max(1, options.size ?? 1) }, () => ({ worker: null, jobs: 0, busy: false }));
    this.#maxPerAccount = Math.max(1, options.maxPerAccount ?? this.#slots.length);
  }

  /** Workers started so far, replacements included. */
  get workersStarted(): number {
    return this.#workersStarted;
  }

  load(): WorkerPoolLoad {
    return { size: this.#slots.length, busy: this.#slots.filter((slot) => slot.busy).length, queued: this.#queue.size, timedOut: this.#timedOut };
  }

  /** Runs one job; `transfer` moves those buffers to the worker instead of copying them. */
  run(payload: Payload, transfer: readonly Transferable[] = [], ticket: JobTicket = {}): Promise<Reply> {
    if (this.#closed) return Promise.reject(new Error(`${this.#options.name} closed`));
    return new Promise((resolve, reject) => {
      const job: QueuedJob<Payload, Reply> = {
        payload,
        transfer,
        account: ticket.account ?? SHARED_ACCOUNT,
        deadlineAt: ticket.deadlineAt ?? null,
        expiry: null,
        resolve,
        reject,
      };
      if (job.deadlineAt !== null) {
        job.expiry = setTimeout(() => {
          if (this.#queue.remove(job.account, job)) job.reject(busyTimeout());
        }, Math.max(0, job.deadlineAt - Date.now()));
        job.expiry.unref();
      }
      this.#queue.push(job.account, job);
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.drain()) {
      if (queued.expiry !== null) clearTimeout(queued.expiry);
      queued.reject(new Error(`${this.#options.name} closed`));
    }
    await Promise.all(this.#slots.map((slot) => this.#retire(slot)));
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      const running = (account: string) => this.#runningByAccount.get(account) ?? 0;
      const next = this.#queue.shift((account) => running(account) < this.#maxPerAccount, running);
      if (next === undefined) return;
      if (next.item.expiry !== null) clearTimeout(next.item.expiry);
      this.#run(slot, next.item);
    }
  }

  #run(slot: Slot, queued: QueuedJob<Payload, Reply>): void {
    slot.busy = true;
    this.#runningByAccount.set(queued.account, (this.#runningByAccount.get(queued.account) ?? 0) + 1);
    const worker = slot.worker ?? this.#start(slot);
    const id = this.#nextId++;
    if (this.#options.unrefWhenIdle) worker.ref();
    let deadline: ReturnType<typeof setTimeout> | null = null;
    const finish = (settle: () => void, retire: boolean) => {
      if (deadline !== null) clearTimeout(deadline);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (this.#options.unrefWhenIdle) worker.unref();
      slot.busy = false;
      const running = (this.#runningByAccount.get(queued.account) ?? 1) - 1;
      if (running === 0) this.#runningByAccount.delete(queued.account);
      else this.#runningByAccount.set(queued.account, running);
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
    if (queued.deadlineAt !== null) {
      deadline = setTimeout(() => {
        this.#timedOut++;
        finish(() => queued.reject(processingTimeout(`A job of the ${this.#options.name}`)), true);
      }, Math.max(0, queued.deadlineAt - Date.now()));
    }
    worker.postMessage({ ...queued.payload, id }, queued.transfer);
  }

  #start(slot: Slot): PoolWorker {
    const worker = this.#options.startWorker?.(this.#options.workerUrl) ?? new Worker(this.#options.workerUrl);
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
