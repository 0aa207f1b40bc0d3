import type { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { problemBody } from "../../contracts/problems/catalogue.ts";
import { problemResponse } from "../../contracts/problems/problem-response.ts";

/** What a refused request is told: the edge retries it (on another instance, or this one restarted). */
const DRAINING_RETRY_AFTER_S = "2";

export interface Drain {
  /** Wraps the app's fetch: while draining, every new request is a 503 with Retry-After. */
  guard(fetch: (request: Request) => Response | Promise<Response>): (request: Request) => Response | Promise<Response>;
  /** Counts a server's requests from their headers until their response is closed. */
  watch(server: EventEmitter): void;
  /** Refuses new work, then resolves when nothing is in flight or `timeoutMs` has passed. */
  drain(timeoutMs: number): Promise<"drained" | "timed_out">;
  readonly inFlight: number;
}

/**
 * Container platforms stop an instance with SIGTERM and a grace period before SIGKILL: the work it
 * has accepted finishes and is answered, and work it has not started goes elsewhere at once,
 * instead of waiting on a connection that will be cut.
 */
export function createDrain(): Drain {
  let inFlight = 0;
  let draining = false;
  const idleWaiters = new Set<() => void>();
  const settle = () => {
    if (inFlight > 0) return;
    for (const wake of idleWaiters) wake();
    idleWaiters.clear();
  };
  return {
    guard(fetch) {
      return (request) =>
        draining
          ? problemResponse(problemBody("origin_unavailable", "This origin instance is shutting down; retry shortly."), {
              "Retry-After": DRAINING_RETRY_AFTER_S,
              Connection: "close",
            })
          : fetch(request);
    },
    watch(server) {
      server.on("request", (_request: unknown, response: ServerResponse) => {
        inFlight++;
        response.once("close", () => {
          inFlight--;
          settle();
        });
      });
    },
    drain(timeoutMs) {
      draining = true;
      if (inFlight === 0) return Promise.resolve("drained");
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          idleWaiters.delete(done);
          resolve("timed_out");
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve("drained");
        };
        idleWaiters.add(done);
      });
    },
    get inFlight() {
      return inFlight;
    },
  };
}
