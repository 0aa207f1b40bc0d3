// A customer's HTTP client as the soak drives it: every POST carries an Idempotency-Key, and a
// timeout, a dropped connection, a 5xx, a 409 (the first try still running) or a 429 is retried
// with the same key after a short backoff, a bounded number of times. Every attempt is logged.
import { randomUUID } from "node:crypto";

export interface Attempt {
  started: number;
  ended: number;
  /** HTTP status, or 0 when the client saw no answer (timeout or connection error). */
  status: number;
  requestId: string | null;
  replayed: boolean;
}

export interface Call {
  op: string;
  idempotencyKey: string | null;
  attempts: Attempt[];
  /** The last answer's status, 0 when every attempt went unanswered. */
  status: number;
  body: unknown;
  bytes: Buffer | null;
}

const MAX_ATTEMPTS = 6;

function backoffMs(attempt: number, retryAfter: string | null): number {
  const told = retryAfter !== null ? Number(retryAfter) * 1000 : NaN;
  return Number.isFinite(told) ? Math.min(told, 5_000) : Math.min(500 * 2 ** (attempt - 1), 5_000);
}

const retryable = (status: number) => status === 0 || status >= 500 || status === 409 || status === 429;

export class SoakClient {
  readonly calls: Call[] = [];
  readonly edgeUrl: string;
  private readonly apiKey: string;
  /** Past this moment no retry is started. */
  private readonly stopAt: () => number;

  constructor(edgeUrl: string, apiKey: string, stopAt: () => number) {
    this.edgeUrl = edgeUrl;
    this.apiKey = apiKey;
    this.stopAt = stopAt;
  }

  /** One logical request, retried as a careful client does; POSTs keep one Idempotency-Key throughout. */
  async call(
    op: string,
    path: string,
    init: { method?: string; json?: unknown; auth?: boolean; timeoutMs: number; raw?: boolean },
  ): Promise<Call> {
    const method = init.method ?? (init.json === undefined ? "GET" : "POST");
    const call: Call = { op, idempotencyKey: method === "POST" ? `soak-${randomUUID()}` : null, attempts: [], status: 0, body: null, bytes: null };
    this.calls.push(call);
    const body = init.json === undefined ? undefined : JSON.stringify(init.json);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const started = Date.now();
      const headers: Record<string, string> = {};
      if (init.auth !== false) headers.Authorization = `Bearer ${this.apiKey}`;
      if (body !== undefined) headers["Content-Type"] = "application/json";
      if (call.idempotencyKey) headers["Idempotency-Key"] = call.idempotencyKey;
      let retryAfter: string | null = null;
      try {
        const res = await fetch(`${this.edgeUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(init.timeoutMs) });
        const bytes = Buffer.from(await res.arrayBuffer());
        retryAfter = res.headers.get("Retry-After");
        call.attempts.push({ started, ended: Date.now(), status: res.status, requestId: res.headers.get("X-Request-Id"), replayed: res.headers.get("Idempotent-Replayed") === "true" });
        call.status = res.status;
        call.bytes = bytes;
        call.body = init.raw || !(res.headers.get("Content-Type") ?? "").includes("json") ? null : JSON.parse(bytes.toString("utf8"));
      } catch {
        call.attempts.push({ started, ended: Date.now(), status: 0, requestId: null, replayed: false });
        call.status = 0;
        call.body = null;
        call.bytes = null;
      }
      if (!retryable(call.status) || attempt === MAX_ATTEMPTS) break;
      const wait = backoffMs(attempt, retryAfter);
      // A retry past the end of the run would outlive it; the call stays as its last answer left it.
      if (Date.now() + wait > this.stopAt()) break;
      await new Promise((r) => setTimeout(r, wait));
    }
    return call;
  }
}
