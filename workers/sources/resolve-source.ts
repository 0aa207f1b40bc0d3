import { SYNC_SOURCE_MAX_BYTES, type Source } from "../../contracts/envelope.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { readObject } from "../objects/file-objects.ts";
import { findReadyFile } from "../files/file-store.ts";
import { decodeBase64Source } from "./base64-source.ts";
import { guardedFetch } from "./guarded-fetch.ts";
import { expectKind, type ExpectedKind, type SniffedFormat, type SniffedType } from "../../contracts/sniff.ts";

// A URL source's time caps; a remote origin's originals are fetched under the same ones.
export const URL_TIMEOUT_MS = 30_000;
export const URL_CONNECT_TIMEOUT_MS = 10_000;
/** Enough of a stored file to identify it (PDF allows its header within the first 1024 bytes). */
const SNIFF_BYTES = 4096;

export interface ResolvedSource {
  /** Inline and URL sources are in memory; a stored file streams from R2 when read, never buffered. */
  body: Uint8Array | (() => Promise<ReadableStream<Uint8Array>>);
  size: number;
  /** The stored file the source is; an expiring upload is deleted after processing unless kept (workers/files/file-lifecycle.ts). */
  file: { id: string; kind: "source" | "result"; durable: boolean } | null;
  filename: string | null;
  type: SniffedType;
}

type SourceEnv = Pick<Bindings, "DB" | "FILES" | "FILE_SHARDS" | "ALLOW_LOOPBACK_URLS">;

/** A stored source's byte limit: one for every source, or one per format (a PDF's page is an image with the PDF limit). */
export type StoredBytesLimit = number | ((format: SniffedFormat) => number);

function storedTooLarge(fileId: string, size: number, limit: number): ProblemError {
  return new ProblemError("payload_too_large", `File ${fileId} has ${size} bytes; this call takes at most ${limit}.`);
}

// A name for the stored file, never a reason to fail: public URLs carry malformed escapes
// (`/100%.jpg`), and for those the raw segment is the best name there is.
function filenameFromUrl(url: string): string | null {
  const last = new URL(url).pathname.split("/").filter(Boolean).pop();
  if (!last) return null;
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
  }
  return name.slice(0, 200);
}

/** The source's bytes as a request body: the buffer itself, or a fresh R2 stream. */
export async function sourceBody(source: ResolvedSource): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  return source.body instanceof Uint8Array ? source.body : source.body();
}

/**
 * Every endpoint's one way to turn `{url}`, `{base64}` or `{file_id}` into input. A stored file
 * may be up to `maxStoredBytes`; an inline or URL source sits whole in the isolate, so it is also
 * capped at SYNC_SOURCE_MAX_BYTES. Either is refused before it is all in memory, and checked by
 * magic bytes against what the endpoint takes (never by extension or declared type). Stored files
 * are sniffed from a ranged read and otherwise left in R2 until the origin reads them.
 */
export async function resolveSource(
  env: SourceEnv,
  accountId: string,
  source: Source,
  expect: ExpectedKind,
  maxStoredBytes: StoredBytesLimit,
): Promise<ResolvedSource> {
  if ("file_id" in source) {
    const record = await findReadyFile(env, accountId, source.file_id);
    // A limit for every source is checked before any byte is read; one per format once the head says what it is.
    if (typeof maxStoredBytes === "number" && record.size_bytes > maxStoredBytes) throw storedTooLarge(source.file_id, record.size_bytes, maxStoredBytes);
    const head = await readObject(env.FILES, record.r2_key, record.id, { range: { offset: 0, length: Math.min(SNIFF_BYTES, record.size_bytes) } });
    const type = expectKind(new Uint8Array(await head.arrayBuffer()), expect);
    if (typeof maxStoredBytes === "function" && record.size_bytes > maxStoredBytes(type.format)) {
      throw storedTooLarge(source.file_id, record.size_bytes, maxStoredBytes(type.format));
    }
    return {
      body: async () => (await readObject(env.FILES, record.r2_key, record.id)).body,
      size: record.size_bytes,
      file: { id: record.id, kind: record.kind, durable: record.expires_at === null },
      filename: record.filename,
      type,
    };
  }
  // Inline and URL sources stop at the sync cap, below every per-format limit.
  const maxBytes = typeof maxStoredBytes === "number" ? Math.min(SYNC_SOURCE_MAX_BYTES, maxStoredBytes) : SYNC_SOURCE_MAX_BYTES;
  let bytes: Uint8Array;
  let filename: string | null = null;
  if ("url" in source) {
    const fetched = await guardedFetch(source.url, {
      allowLoopback: env.ALLOW_LOOPBACK_URLS === "true",
      maxBytes,
      timeoutMs: URL_TIMEOUT_MS,
      connectTimeoutMs: URL_CONNECT_TIMEOUT_MS,
    });
    bytes = fetched.bytes;
    filename = filenameFromUrl(fetched.finalUrl);
  } else {
    bytes = decodeBase64Source(source.base64, maxBytes);
  }
  return { body: bytes, size: bytes.length, file: null, filename, type: expectKind(bytes, expect) };
}
