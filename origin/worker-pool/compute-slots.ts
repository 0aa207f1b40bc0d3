// The main process's share of the cores for sharp and exceljs, scheduled like the worker pools:
// calls wait per account and take turns (fair-queue.ts). At its deadline a call is answered
// processing_timeout and its slot is given to the next call. The work that can run long past a
// step's time (drawing a PDF page or an SVG) runs in a worker pool the same deadline kills
// (deadline.ts hands it the call's ticket); what is left in this process stops at its next step
// or at sharp's own timeout, each bounded by the pixel limits, so a slot is not held for work
// that no one waits for.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { FairQueue } from "./fair-queue.ts";
import { runWithTicket } from "./deadline.ts";
import { busyTimeout, processingTimeout, SHARED_ACCOUNT, type JobTicket } from "./job-ticket.ts";
import type { WorkerPoolLoad } from "./worker-pool.ts";

interface Waiting {
  start: () => void;
  expire: () => void;
  expiry: ReturnType<typeof setTimeout> | null;
}

export class ComputeSlots {
  readonly #size: number;
  readonly #maxPerAccount: number;
  readonly #queue = new FairQueue<Waiting>();
  readonly #runningByAccount = new Map<string, number>();
  #busy = 0;
  #timedOut = 0;

  constructor(options: { size: number; maxPerAccount?: number }) {
    this.#size = Math.max(1, options.size);
    this.#maxPerAccount = Math.max(1, options.maxPerAccount ?? this.#size);
  }

  load(): WorkerPoolLoad {
    return { size: this.#size, busy: this.#busy, queued: this.#queue.size, timedOut: this.#timedOut };
  }

  run<T>(ticket: JobTicket, what: string, task: () => Promise<T>): Promise<T> {
    const account = ticket.account ?? SHARED_ACCOUNT;
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = {
        expiry: null,
        expire: () => reject(busyTimeout()),
        start: () => {
          this.#busy++;
          this.#runningByAccount.set(account, (this.#runningByAccount.get(account) ?? 0) + 1);
          let released = false;
          const release = () => {
            if (released) return;
            released = true;
            if (deadline !== null) clearTimeout(deadline);
            this.#busy--;
            const running = (this.#runningByAccount.get(account) ?? 1) - 1;
            if (running === 0) this.#runningByAccount.delete(account);
            else this.#runningByAccount.set(account, running);
            this.#dispatch();
          };
          const timedOut = (error: ProblemError) => {
            if (released) return;
            this.#timedOut++;
            reject(error);
            release();
          };
          const deadline =
            ticket.deadlineAt === undefined ? null : setTimeout(() => timedOut(processingTimeout(what)), Math.max(0, ticket.deadlineAt - Date.now()));
          runWithTicket({ account, deadlineAt: ticket.deadlineAt }, task).then(
            (value) => {
              if (!released) resolve(value);
              release();
            },
            (error: unknown) => {
              if (error instanceof ProblemError && error.slug === "processing_timeout") return timedOut(error);
              if (!released) reject(error);
              release();
            },
          );
        },
      };
      if (ticket.deadlineAt !== undefined) {
        waiting.expiry = setTimeout(() => {
          if (this.#queue.remove(account, waiting)) waiting.expire();
        }, Math.max(0, ticket.deadlineAt - Date.now()));
      }
      this.#queue.push(account, waiting);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#busy < this.#size) {
      const running = (account: string) => this.#runningByAccount.get(account) ?? 0;
      const next = this.#queue.shift((account) => running(account) < this.#maxPerAccount, running);
      if (next === undefined) return;
      if (next.item.expiry !== null) clearTimeout(next.item.expiry);
      next.item.start();
    }
  }
}
