import type { Source } from "../contracts/envelope.ts";
import { ProblemError } from "../contracts/problems.ts";
import type { Bindings } from "../env.ts";
import { openFile } from "../files/file-store.ts";
import { decodeBase64Source } from "./base64-source.ts";
import { guardedFetch } from "./guarded-fetch.ts";
import { expectKind, type ExpectedKind, type SniffedType } from "./sniff.ts";

const URL_TIMEOUT_MS = 30_000;
const URL_CONNECT_TIMEOUT_MS = 10_000;

export interface ResolvedSource {
  bytes: Uint8Array;
  /** Set when the source is an uploaded file, which `keep_source: false` deletes after processing. */
  uploadedFileId: string | null;
  filename: string | null;
  type: SniffedType;
}

type SourceEnv = Pick<Bindings, "DB" | "FILES" | "ALLOW_LOOPBACK_URLS">;

function filenameFromUrl(url: string): string | null {
  const last = new URL(url).pathname.split("/").filter(Boolean).pop();
  return last ? decodeURIComponent(last).slice(0, 200) : null;
}

/**
 * Every endpoint's one way to turn `{url}`, `{base64}` or `{file_id}` into bytes, refused past
 * `maxBytes` before they are all in memory, and checked by magic bytes against what the endpoint
 * takes (never by extension or declared type).
 */
export async function resolveSource(
  env: SourceEnv,
  accountId: string,
  source: Source,
  expect: ExpectedKind,
  maxBytes: number,
): Promise<ResolvedSource> {
  let bytes: Uint8Array;
  let uploadedFileId: string | null = null;
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
  } else if ("base64" in source) {
    bytes = decodeBase64Source(source.base64, maxBytes);
  } else {
    const opened = await openFile(env, accountId, source.file_id);
    if (opened.record.size_bytes > maxBytes) {
      await opened.object.body.cancel();
      throw new ProblemError("payload_too_large", `File ${source.file_id} has ${opened.record.size_bytes} bytes; this call takes at most ${maxBytes}.`);
    }
    bytes = new Uint8Array(await opened.object.arrayBuffer());
    if (opened.record.kind === "source") uploadedFileId = opened.record.id;
    filename = opened.record.filename;
  }
  return { bytes, uploadedFileId, filename, type: expectKind(bytes, expect) };
}
