// HTTP single byte ranges (RFC 9110 section 14). Only one range is served: a header that is
// malformed or lists several ranges is ignored, which the RFC allows, and the whole file is sent.

export interface ByteRange {
  offset: number;
  length: number;
}

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/** The part of a `size`-byte file that `header` asks for, null for all of it. */
export function resolveByteRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (header === null) return null;
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "" && last === "") return null;

  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const offset = Number(first);
  if (last !== "" && Number(last) < offset) return null;
  if (offset >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { offset, length: end - offset + 1 };
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.offset}-${range.offset + range.length - 1}/${size}`;
}
