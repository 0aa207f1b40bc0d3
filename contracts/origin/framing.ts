// How the edge and the origin talk: the request body is the input bytes (or JSON for xlsx), the
// options travel as JSON in a header, and a success answer is one framed body:
//   [u32 big-endian length of the meta JSON][meta JSON][output bytes]
// so the stats arrive first and the output can stream straight on to R2 without buffering.
// A failure answer is an application/problem+json body with the problem's status.
// Each endpoint names its reply schema; the origin sends nothing it does not declare and the edge
// parses the meta with it, so a reply that drifts from the contract fails loudly at the edge.
// The body's length (Content-Length) and SHA-256 (RFC 9530 Content-Digest) travel with it: a reply
// cut short or altered on the way errors the payload stream at its end, so whatever was consuming
// it (an R2 put, a buffer) fails instead of keeping bytes the origin never sent.
import type { z } from "@hono/zod-openapi";
import { encodeBase64 } from "../encoding/base64.ts";
import { Sha256 } from "../crypto/sha256-incremental.ts";

export interface OriginEndpoint<Reply extends z.ZodType = z.ZodType> {
  path: string;
  reply: Reply;
}

export type ReplyOf<E extends OriginEndpoint> = z.output<E["reply"]>;

export const ORIGIN_SECRET_HEADER = "X-Origin-Secret";
export const ORIGIN_OPTIONS_HEADER = "X-Origin-Options";
/** The edge's request id, so the origin logs a failure under the id the client was given. */
export const REQUEST_ID_HEADER = "X-Request-Id";
/**
 * The account a call works for: the origin queues calls per account and takes turns, so one
 * account's large jobs cannot hold every worker. Calls without one share a queue.
 */
export const ORIGIN_ACCOUNT_HEADER = "X-Origin-Account";
/**
 * On every origin reply, success or failure: the origin's work in progress and waiting, summed over
 * its worker pools (they share its cores), and the workers it has, as `busy=2, queued=0, size=6`.
 * The edge routes new calls to the less loaded of two instances from it.
 */
export const ORIGIN_LOAD_HEADER = "X-Origin-Load";
export const FRAMED_CONTENT_TYPE = "application/vnd.pixelpress.framed";
export const CONTENT_DIGEST_HEADER = "Content-Digest";

const MAX_META_BYTES = 16 * 1024 * 1024;

export function encodeOptionsHeader(options: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(options));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeOptionsHeader(header: string | null | undefined): unknown {
  if (!header) return {};
  const binary = atob(header);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

export function frameHead(meta: unknown): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(meta));
  const head = new Uint8Array(4 + json.length);
  new DataView(head.buffer).setUint32(0, json.length);
  head.set(json, 4);
  return head;
}

/** The Content-Digest value (RFC 9530, sha-256) of a framed body sent as `parts`, in order. */
export function frameDigest(parts: readonly Uint8Array[]): string {
  const hash = new Sha256();
  for (const part of parts) hash.update(part);
  return digestValue(hash);
}

function digestValue(hash: Sha256): string {
  return `sha-256=:${encodeBase64(hash.digest())}:`;
}

/** What the framed body must measure up to, from its headers; a check whose value is null is skipped. */
export interface FrameIntegrity {
  length: number | null;
  digest: string | null;
}

export interface Frame<M> {
  meta: M;
  /** The output bytes that follow the meta, still streaming. */
  payload: ReadableStream<Uint8Array>;
  /** Length of the payload, when the framed body's total length was known. */
  payloadLength: number | null;
}

/**
 * Reads the meta off the front of a framed body, parses it with `parseMeta` (an endpoint's reply
 * schema) and hands back the rest unbuffered. The body is a stream of unknown chunks (workers-types
 * types a fetched body's chunks `any`), each checked to be bytes as it is read.
 */
export async function readFrame<M>(
  body: ReadableStream<unknown>,
  parseMeta: (meta: unknown) => M,
  integrity: FrameIntegrity = { length: null, digest: null },
): Promise<Frame<M>> {
  const totalLength = integrity.length;
  const reader = body.getReader();
  const hash = new Sha256();
  let received = 0;
  const read = async () => {
    const chunk = await reader.read();
    if (chunk.done) return chunk;
    if (!(chunk.value instanceof Uint8Array)) throw new TypeError("origin frame: a chunk that is not bytes");
    hash.update(chunk.value);
    received += chunk.value.length;
    return { done: false, value: chunk.value } as const;
  };
  const verifyWhole = () => {
    if (totalLength !== null && received !== totalLength) throw new Error(`origin frame length ${received}, Content-Length said ${totalLength}`);
    if (integrity.digest === null) return;
    const actual = digestValue(hash);
    if (actual !== integrity.digest) throw new Error(`origin frame digest ${actual}, Content-Digest said ${integrity.digest}`);
  };
  let buffered = new Uint8Array(0);
  const fill = async (need: number) => {
    while (buffered.length < need) {
      const { done, value } = await read();
      if (done) throw new Error(`origin frame truncated: needed ${need} bytes, got ${buffered.length}`);
      const next = new Uint8Array(buffered.length + value.length);
      next.set(buffered);
      next.set(value, buffered.length);
      buffered = next;
    }
  };
  await fill(4);
  const metaLength = new DataView(buffered.buffer, buffered.byteOffset).getUint32(0);
  if (metaLength > MAX_META_BYTES) throw new Error(`origin frame meta too large: ${metaLength}`);
  await fill(4 + metaLength);
  let meta: M;
  try {
    meta = parseMeta(JSON.parse(new TextDecoder().decode(buffered.subarray(4, 4 + metaLength))));
  } catch (error) {
    await reader.cancel();
    throw error;
  }
  const rest = buffered.subarray(4 + metaLength);
  const payload = new ReadableStream<Uint8Array>({
    start(controller) {
      if (rest.length > 0) controller.enqueue(rest);
    },
    async pull(controller) {
      const { done, value } = await read();
      if (!done) return controller.enqueue(value);
      try {
        verifyWhole();
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { meta, payload, payloadLength: totalLength === null ? null : totalLength - 4 - metaLength };
}

/** An origin instance's load as its replies report it. */
export interface OriginLoad {
  busy: number;
  queued: number;
  size: number;
}

export function encodeOriginLoad(load: OriginLoad): string {
  return `busy=${load.busy}, queued=${load.queued}, size=${load.size}`;
}

const LOAD_PATTERN = /^busy=(\d{1,6}), queued=(\d{1,9}), size=(\d{1,6})$/;

/** The load an origin reply declares; null when the header is missing or not in its form (an older origin, a fake). */
export function parseOriginLoad(header: string | null): OriginLoad | null {
  const match = header === null ? null : LOAD_PATTERN.exec(header.trim());
  if (!match) return null;
  const size = Number(match[3]);
  return size > 0 ? { busy: Number(match[1]), queued: Number(match[2]), size } : null;
}
