// `source: {url}`: fetch a customer URL without letting it reach inside the network or tie up
// the isolate. Redirects are followed by hand so every hop passes checkUrl; the byte cap is
// enforced on the stream, so an oversized or endless body never sits in memory.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { checkUrl, type UrlPolicy } from "./check-url.ts";
import { connectionFailure, upstreamStatusDetail, type ConnectionFailureReason } from "./connection-failure.ts";

export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface GuardedFetchOptions extends UrlPolicy {
  maxBytes: number;
  // The whole download, all hops and the body included.
  timeoutMs: number;
  // Per hop, until the response headers arrive; defaults to timeoutMs.
  connectTimeoutMs?: number;
  maxRedirects?: number;
  // The network; tests pass a function that answers with real Responses. A signing fetch (an S3
  // origin's) goes here too, so every hop it makes is still checked.
  fetchImpl?: typeof fetch;
  // Sent on every hop (a revalidation's If-None-Match and If-Modified-Since).
  headers?: Record<string, string>;
}

export interface FetchedSource {
  bytes: Uint8Array;
  contentType: string | null;
  finalUrl: string;
  headers: Headers;
}

/** A revalidation's answer: new bytes, or the origin's 304 with its headers. */
export type RevalidatedSource = FetchedSource | { notModified: true; headers: Headers; finalUrl: string };

type UnreachableReason = ConnectionFailureReason | "timeout" | "truncated" | "redirect_limit" | "bad_redirect" | "upstream_status";

function unreachable(reason: UnreachableReason, detail: string, extensions: Record<string, unknown> = {}): ProblemError {
  return new ProblemError("source_unreachable", detail, { extensions: { reason, ...extensions } });
}

// A host that fails is the customer's condition, not the service's: one line at warn level.
function expectedFailure(problem: ProblemError): ProblemError {
  console.warn(`source unreachable (${String(problem.extensions.reason)}): ${problem.message}`);
  return problem;
}

function tooLarge(maxBytes: number, detail: string): ProblemError {
  return new ProblemError("source_too_large", `${detail}; the limit is ${maxBytes} bytes, use POST /v1/uploads for larger files`, {
    extensions: { max_bytes: maxBytes },
  });
}

// Settles with the promise, or rejects with the signal's reason as soon as it aborts, so a
// peer that ignores the abort (or a stalled stream) cannot outlive the timeout.
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function fetchHeaders(url: URL, options: GuardedFetchOptions, download: AbortSignal): Promise<Response> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const connectMs = options.connectTimeoutMs ?? options.timeoutMs;
  const hop = new AbortController();
  // The hop's signal stays tied to the download, so aborting the download also stops the body.
  const forward = () => hop.abort(download.reason);
  if (download.aborted) forward();
  download.addEventListener("abort", forward, { once: true });
  const timer = setTimeout(
    () => hop.abort(unreachable("timeout", `${url.host} sent no response within ${connectMs} ms`)),
    connectMs,
  );
  try {
    return await untilAborted(fetchImpl(url.href, { redirect: "manual", signal: hop.signal, headers: options.headers }), hop.signal);
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    if (hop.signal.aborted && hop.signal.reason instanceof ProblemError) throw hop.signal.reason;
    const failure = await connectionFailure(url, error);
    throw expectedFailure(unreachable(failure.reason, `${url.host} could not be reached: ${failure.detail}`));
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, url: URL, maxBytes: number, download: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes, `the source declares ${declared} bytes`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  const cutShort = (error: unknown) => {
    if (error instanceof ProblemError) return error;
    const of = declared > 0 ? ` of the ${declared} it declared` : "";
    return expectedFailure(unreachable("truncated", `${url.host} closed the connection after ${received} bytes${of}: the body was cut short`));
  };
  try {
    for (;;) {
      const chunk = await untilAborted(reader.read(), download).catch((error: unknown) => {
        throw cutShort(error);
      });
      if (chunk.done) break;
      // A fetched body's chunks are typed `any`; the platform hands bytes.
      const value: unknown = chunk.value;
      if (!(value instanceof Uint8Array)) throw new TypeError("a source body chunk that is not bytes");
      received += value.byteLength;
      if (received > maxBytes) throw tooLarge(maxBytes, `the source sent more than ${maxBytes} bytes`);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function nextHop(response: Response, current: URL, hop: number, options: GuardedFetchOptions): URL {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  if (hop >= maxRedirects) {
    throw unreachable("redirect_limit", `more than ${maxRedirects} redirects`, { final_url: current.href });
  }
  const location = response.headers.get("location");
  let target: URL;
  try {
    target = new URL(location ?? "", current);
  } catch {
    target = current;
  }
  if (location === null || target.href === current.href) {
    throw unreachable("bad_redirect", `${current.host} answered ${response.status} without a usable Location`, {
      upstream_status: response.status,
    });
  }
  try {
    return checkUrl(target.href, options);
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    throw new ProblemError(error.slug, `redirect ${hop + 1} to ${target.href} refused: ${error.message}`, {
      extensions: { ...error.extensions, redirect_url: target.href },
    });
  }
}

export function guardedFetch(url: string, options: GuardedFetchOptions): Promise<FetchedSource> {
  return fetchFollowing(url, options, false) as Promise<FetchedSource>;
}

/** guardedFetch for a conditional request: a 304 is an answer, not a failure. */
export function guardedRevalidate(url: string, options: GuardedFetchOptions): Promise<RevalidatedSource> {
  return fetchFollowing(url, options, true);
}

async function fetchFollowing(url: string, options: GuardedFetchOptions, notModifiedIsAnswer: boolean): Promise<RevalidatedSource> {
  let current = checkUrl(url, options);
  const download = new AbortController();
  const timer = setTimeout(
    () => download.abort(unreachable("timeout", `the download did not finish within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetchHeaders(current, options, download.signal);
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel();
        current = nextHop(response, current, hop, options);
        continue;
      }
      if (response.status === 304 && notModifiedIsAnswer) {
        await response.body?.cancel();
        return { notModified: true, headers: response.headers, finalUrl: current.href };
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw unreachable("upstream_status", upstreamStatusDetail(current.host, response), { upstream_status: response.status });
      }
      const bytes = await readCapped(response, current, options.maxBytes, download.signal);
      return { bytes, contentType: response.headers.get("content-type"), finalUrl: current.href, headers: response.headers };
    }
  } finally {
    clearTimeout(timer);
    // Releases the per-hop listeners and any body still streaming after a failure.
    download.abort();
  }
}
