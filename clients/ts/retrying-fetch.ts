// Retries a request on 429, 5xx and network errors, re-sending the same Idempotency-Key so the
// server replays the first answer (and charges once) whichever attempt got through.

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** First back-off; doubles each attempt, with jitter. `Retry-After` wins when the server sends one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 4, baseDelayMs: 250, maxDelayMs: 20_000 };

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

export function newIdempotencyKey(): string {
  return `pp-${crypto.randomUUID()}`;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

function delayFor(attempt: number, response: Response | undefined, policy: RetryPolicy): number {
  const retryAfter = Number(response?.headers.get("Retry-After"));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, policy.maxDelayMs);
  const exponential = policy.baseDelayMs * 2 ** attempt;
  return Math.min(exponential / 2 + Math.random() * (exponential / 2), policy.maxDelayMs);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/**
 * A fetch that retries. A POST without an Idempotency-Key gets one here, once per logical call, so
 * every attempt of that call carries the same key; PATCH is left alone unless it already has one.
 */
export function createRetryingFetch(policy: RetryPolicy = DEFAULT_RETRY_POLICY, baseFetch: typeof fetch = globalThis.fetch): (request: Request) => Promise<Response> {
  return async (input: Request) => {
    const request = input.method === "POST" && !input.headers.has("Idempotency-Key") ? withIdempotencyKey(input) : input;
    const safeToRepeat = IDEMPOTENT_METHODS.has(request.method) || request.headers.has("Idempotency-Key");
    for (let attempt = 0; ; attempt++) {
      const last = !safeToRepeat || attempt >= policy.retries;
      let response: Response;
      try {
        response = await baseFetch(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await sleep(delayFor(attempt, undefined, policy), request.signal);
        continue;
      }
      if (last || !isRetryableStatus(response.status)) return response;
      await response.body?.cancel();
      await sleep(delayFor(attempt, response, policy), request.signal);
    }
  };
}

function withIdempotencyKey(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set("Idempotency-Key", newIdempotencyKey());
  return new Request(request, { headers });
}
