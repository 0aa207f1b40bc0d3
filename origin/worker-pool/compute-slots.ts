// The main process's share of the cores for sharp and exceljs, scheduled like the worker pools:
// calls wait per account and take turns (fair-queue.ts). Work here cannot be killed, so a call
// is answered processing_timeout at its deadline while its work stops at its next step
// (deadline.ts); the slot is held until the work has really stopped, so a runaway call never
// lets more work run than there are slots.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { FairQueue } from "./fair-queue.ts";
import { runWithDeadline } from "./deadline.ts";
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
          let answered = false;
          const timedOut = (error: ProblemError) => {
            answered = true;
            this.#timedOut++;
            reject(error);
          };
          const deadline =
            ticket.deadlineAt === undefined ? null : setTimeout(() => timedOut(processingTimeout(what)), Math.max(0, ticket.deadlineAt - Date.now()));
          runWithDeadline(ticket.deadlineAt, task)
            .then(
              (value) => {
                if (!answered) resolve(value);
              },
              (error: unknown) => {
                if (answered) return;
                if (error instanceof ProblemError && error.slug === "processing_timeout") timedOut(error);
                else reject(error);
              },
            )
            .finally(() => {
              if (deadline !== null) clearTimeout(deadline);
              this.#busy--;
              const running = (this.#runningByAccount.get(account) ?? 1) - 1;
              if (running === 0) this.#runningByAccount.delete(account);
              else this.#runningByAccount.set(account, running);
              this.#dispatch();
            });
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
