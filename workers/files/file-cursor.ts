// The list's cursor: the last file's (created_at, id), base64url so clients treat it as opaque.
import { Base64Error, decodeBase64, encodeBase64 } from "../../contracts/encoding/base64.ts";
import type { FileCursor } from "./file-store.ts";

const CURSOR = /^(\d{1,15})\.(file_[A-Za-z0-9]{1,60})$/;

export function encodeFileCursor(cursor: FileCursor): string {
  return encodeBase64(new TextEncoder().encode(`${cursor.createdAt}.${cursor.id}`), "url");
}

/** The cursor's position, or null when `text` is not a cursor this API wrote. */
export function decodeFileCursor(text: string): FileCursor | null {
  let decoded: string;
  try {
    // Bytes that are not UTF-8 decode to U+FFFD, which the pattern refuses.
    decoded = new TextDecoder().decode(decodeBase64(text));
  } catch (error) {
    if (error instanceof Base64Error) return null;
    throw error;
  }
  const match = CURSOR.exec(decoded);
  return match ? { createdAt: Number(match[1]), id: match[2]! } : null;
}
