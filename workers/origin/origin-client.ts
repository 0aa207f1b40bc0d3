import { isDeadlinePath, originCallTimeoutMs } from "../../contracts/limits/deadlines.ts";
import {
  CONTENT_DIGEST_HEADER,
  encodeOptionsHeader,
  ORIGIN_ACCOUNT_HEADER,
  ORIGIN_LOAD_HEADER,
  ORIGIN_OPTIONS_HEADER,
  ORIGIN_SECRET_HEADER,
  parseOriginLoad,
  REQUEST_ID_HEADER,
  readFrame,
  type Frame,
  type OriginEndpoint,
  type ReplyOf,
} from "../../contracts/origin/framing.ts";
import { ORIGIN_HEALTH_PATH, originHealthSchema, type OriginHealth } from "../../contracts/origin/health.ts";
import { isProblemBody, ProblemError, slugOfType } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { InstanceChooser, type InstanceView } from "./instance-chooser.ts";
import { originInstances, type OriginInstance, type PoolEnv } from "./origin-pool.ts";

type OriginEnv = Pick<Bindings, "ORIGIN_SECRET"> & PoolEnv;

/** A single-instance pool's origin (dead, restarting or draining) gets its one more try after this pause. */
const RETRY_PAUSE_MS = 500;
/** What a client is told to wait when the origin stayed unavailable through the retry. */
const RETRY_AFTER_S = "5";
/** A call with no answer yet after this long has its instance's /healthz asked whether it is still there. */
const STALL_MS = 500;
/** An instance whose /healthz stays silent this long has stopped (a frozen process, a lost host); a busy one answers it between jobs' steps. */
const STALL_PROBE_TIMEOUT_MS = 1_000;

/** Per isolate: what this isolate knows of each instance's load and failures. */
const chooser = new InstanceChooser();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the instance answers its /healthz within `timeoutMs`; a call stuck behind a frozen one never would. */
async function answersHealth(instance: OriginInstance, timeoutMs: number): Promise<boolean> {
  try {
    const res = await instance.send(ORIGIN_HEALTH_PATH, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * One attempt on one instance. When it has not answered within STALL_MS and its /healthz is silent
 * too, the instance is taken out of rotation; an attempt whose body can be sent again is abandoned
 * there (and retried elsewhere), since a frozen process answers nothing until it is thawed.
 */
async function attemptOn(instance: OriginInstance, path: string, init: RequestInit, resendable: boolean): Promise<Response> {
  const abandon = new AbortController();
  let waiting = true;
  const stall = setTimeout(() => {
    void answersHealth(instance, STALL_PROBE_TIMEOUT_MS).then((alive) => {
      if (alive || !waiting) return;
      if (resendable) abandon.abort(new Error(`origin instance ${instance.label} stopped answering`));
      else chooser.failed(instance.key, false);
    });
  }, STALL_MS);
  try {
    return await instance.send(path, { ...init, signal: init.signal ? AbortSignal.any([init.signal, abandon.signal]) : abandon.signal });
  } finally {
    waiting = false;
    clearTimeout(stall);
  }
}

/**
 * The one place the edge reaches the origin. Where the origin runs is configuration (origin-pool.ts);
 * each call goes to the less loaded of two instances (instance-chooser.ts). Every origin call is
 * idempotent (the origin keeps no state), so a connection refused or reset, an instance that
 * stopped answering, or the origin's 503 while it drains, is retried once, on another instance,
 * when the body can be sent again; a body streamed from R2 cannot, and is left to the caller's own
 * retry (a job's queue retry).
 */
export async function originFetch(env: OriginEnv, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(ORIGIN_SECRET_HEADER, env.ORIGIN_SECRET);
  const instances = await originInstances(env);
  const keys = instances.map((instance) => instance.key);
  const resendable = !(init.body instanceof ReadableStream);
  const attempts = resendable ? 2 : 1;
  const tried = new Set<string>();
  for (let attempt = 1; ; attempt++) {
    const key = chooser.choose(keys, tried);
    if (tried.has(key)) await pause(RETRY_PAUSE_MS);
    tried.add(key);
    const instance = instances.find((candidate) => candidate.key === key)!;
    chooser.started(key);
    try {
      const res = await attemptOn(instance, path, { ...init, headers }, resendable);
      if (res.status !== 503) {
        chooser.answered(key, parseOriginLoad(res.headers.get(ORIGIN_LOAD_HEADER)));
        return res;
      }
      chooser.failed(key);
      if (attempt === attempts) return res;
      await res.body?.cancel();
    } catch (error) {
      chooser.failed(key);
      if (attempt === attempts || init.signal?.aborted) {
        // The reason stays in our log: it names internal hosts and ports.
        console.error(`origin ${path} did not answer:`, error);
        throw new ProblemError("origin_unavailable", "The processing service did not answer. Not charged.", {
          headers: { "Retry-After": RETRY_AFTER_S },
        });
      }
    }
  }
}

/** One instance's own health (its pools' load), or null when it does not answer within its contract. */
export interface InstanceHealth {
  label: string;
  health: OriginHealth | null;
  routing: InstanceView;
}

/** What this isolate's routing knows of each instance now. */
export async function originPoolRouting(env: OriginEnv): Promise<{ key: string; label: string; routing: InstanceView }[]> {
  return (await originInstances(env)).map((instance) => ({ key: instance.key, label: instance.label, routing: chooser.view(instance.key) }));
}

/** Every instance's /healthz, asked at once, with what this isolate's routing knows of it. */
export async function originPoolHealth(env: OriginEnv, timeoutMs: number): Promise<InstanceHealth[]> {
  const instances = await originInstances(env);
  return Promise.all(
    instances.map(async (instance) => {
      let health: OriginHealth | null = null;
      try {
        const res = await instance.send(ORIGIN_HEALTH_PATH, { headers: { [ORIGIN_SECRET_HEADER]: env.ORIGIN_SECRET }, signal: AbortSignal.timeout(timeoutMs) });
        if (res.ok) health = originHealthSchema.parse(await res.json());
        else await res.body?.cancel();
      } catch (error) {
        // The reason names internal hosts: it stays in the log.
        console.error(`healthz: origin instance ${instance.label} is down:`, error);
      }
      return { label: instance.label, health, routing: chooser.view(instance.key) };
    }),
  );
}

/** Bytes in a body whose size is known before it is sent; null for a stream. */
function knownSize(body: BodyInit): number | null {
  if (typeof body === "string") return new TextEncoder().encode(body).byteLength;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return body.byteLength;
  if (body instanceof Blob) return body.size;
  return null;
}

/** How long the edge waits for the origin's answer: a little beyond the origin's own deadline for this input. */
function callTimeoutMs(path: string, body: BodyInit): number {
  if (!isDeadlinePath(path)) throw new Error(`no deadline declared for origin path ${path}`);
  return originCallTimeoutMs(path, knownSize(body));
}

/**
 * A compute call: input bytes and options in, the framed meta and output out. The meta is parsed
 * with the endpoint's reply schema; a reply that does not parse is the origin's fault (502), as
 * is any 5xx. The origin's own 4xx problems (a corrupt image is its 422) reach the client
 * unchanged.
 */
export async function originCompute<E extends OriginEndpoint>(
  env: OriginEnv,
  endpoint: E,
  input: {
    body: BodyInit;
    options: unknown;
    contentType?: string;
    requestId?: string;
    /** The account the work is for: the origin queues per account and takes turns. */
    accountId?: string;
  },
): Promise<Frame<ReplyOf<E>>> {
  // Only the wait for the answer is bounded: once the origin answers, its framed payload streams
  // on (into R2) for as long as that takes.
  const timeoutMs = callTimeoutMs(endpoint.path, input.body);
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(), timeoutMs);
  let res: Response;
  try {
    res = await originFetch(env, endpoint.path, {
      method: "POST",
      body: input.body,
      signal: waiting.signal,
      headers: {
        "Content-Type": input.contentType ?? "application/octet-stream",
        [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader(input.options),
        // The origin logs a failure under the id the client was given (a job's id for a job).
        ...(input.requestId ? { [REQUEST_ID_HEADER]: input.requestId } : {}),
        ...(input.accountId ? { [ORIGIN_ACCOUNT_HEADER]: input.accountId } : {}),
      },
    });
  } catch (error) {
    if (!waiting.signal.aborted) throw error;
    throw new ProblemError("processing_timeout", `The processing service gave no answer within ${Math.round(timeoutMs / 1000)} s, past the operation's deadline. Not charged.`);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok || !res.body) throw await originProblem(endpoint.path, res);
  const length = res.headers.get("Content-Length");
  const digest = res.headers.get(CONTENT_DIGEST_HEADER);
  const invalid = (error: unknown) => {
    console.error(`origin ${endpoint.path} sent a reply outside its contract:`, error);
    return new ProblemError("origin_invalid_reply", "The processing service sent a reply we could not read. Not charged.");
  };
  if (digest === null) {
    await res.body.cancel();
    throw invalid(new Error(`no ${CONTENT_DIGEST_HEADER} on a framed reply`));
  }
  let frame: Frame<ReplyOf<E>>;
  try {
    frame = await readFrame(res.body, (meta) => endpoint.reply.parse(meta) as ReplyOf<E>, { length: length === null ? null : Number(length), digest });
  } catch (error) {
    throw invalid(error);
  }
  // The length and digest are known only at the payload's end: whatever consumes it (an R2 put,
  // a buffer for base64) fails there with the origin's fault, so a damaged reply is never kept.
  const reader = frame.payload.getReader();
  // Only a failed read is the origin's fault: a consumer that cancels while a read is in flight
  // closes this stream first, and the close or enqueue that follows must not be logged as one.
  const payload = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(invalid(error));
        return;
      }
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { ...frame, payload };
}

async function originProblem(path: string, res: Response): Promise<ProblemError> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not a problem document
  }
  if (isProblemBody(body)) {
    const slug = slugOfType(body.type);
    // A 4xx is the request's own; a 501 says what the service cannot make (a tool the origin lacks): no retry changes either.
    if (slug && (body.status < 500 || body.status === 501)) {
      const { type: _type, title: _title, status, detail, errors, request_id: _requestId, ...extensions } = body;
      return new ProblemError(slug, detail, { status, errors, extensions });
    }
    // The origin logged it under its own request id; ours goes to the client.
    console.error(`origin ${path} failed with ${res.status} (origin request ${body.request_id ?? "unknown"}): ${body.detail}`);
    if (slug === "internal_error") return new ProblemError("internal_error", "The processing service failed unexpectedly. Not charged.");
  } else {
    console.error(`origin ${path} failed with ${res.status} and no problem document`);
  }
  return new ProblemError("origin_unavailable", `The processing service failed (${res.status}). Not charged.`, {
    headers: { "Retry-After": RETRY_AFTER_S },
  });
}
