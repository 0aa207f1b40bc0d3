import { readFile } from "node:fs/promises";
import { encodeBase64 } from "../contracts/encoding/base64.ts";
import { basename, extname } from "node:path";
import type { Connection } from "./connection.ts";

/** Above this, a file goes through a presigned upload instead of inline base64 (which grows it by a third). */
export const UPLOAD_ABOVE_BYTES = 20 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".pdf": "application/pdf",
};

export interface LoadedSource {
  bytes: number;
  uploaded: boolean;
  source: { base64: string } | { file_id: string };
}

export async function loadSource({ client }: Connection, path: string): Promise<LoadedSource> {
  const bytes = new Uint8Array(await readFile(path));
  if (bytes.byteLength <= UPLOAD_ABOVE_BYTES) {
    return { bytes: bytes.byteLength, uploaded: false, source: { base64: encodeBase64(bytes) } };
  }
  const contentType = CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
  const file = await client.upload(bytes, { contentType, filename: basename(path) });
  return { bytes: bytes.byteLength, uploaded: true, source: { file_id: file.file_id } };
}

/** Fetches a result through its signed link (no key needed). */
export async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download failed: ${response.status} ${await response.text()}`);
  return new Uint8Array(await response.arrayBuffer());
}
