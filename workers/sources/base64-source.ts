// `source: {base64}`: plain base64 or a base64 data: URI, size-checked before a byte is decoded.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { Base64Error, decodeBase64, measureBase64 } from "../../contracts/encoding/base64.ts";

const POINTER = "/source/base64";
const DATA_URI = /^data:([^,]{0,256}),/i;

function invalid(detail: string): ProblemError {
  return new ProblemError("validation_failed", detail, { errors: [{ pointer: POINTER, detail }] });
}

function tooLarge(maxBytes: number, detail: string): ProblemError {
  return new ProblemError("source_too_large", `${detail}; the limit for base64 sources is ${maxBytes} bytes, use POST /v1/uploads for larger files`, {
    extensions: { max_bytes: maxBytes },
  });
}

function payloadStart(text: string): number {
  if (!/^data:/i.test(text)) return 0;
  const match = DATA_URI.exec(text);
  if (!match) throw invalid("the data: URI has no comma before its payload");
  if (!/;base64$/i.test(match[1]!)) throw invalid("data: URIs must be base64-encoded (data:<type>;base64,<data>)");
  return match[0].length;
}

export function decodeBase64Source(text: string, maxBytes: number): Uint8Array {
  const start = payloadStart(text);
  // Whitespace may wrap the text, but not double it: past this the string is refused unread.
  const maxEncodedLength = Math.ceil(maxBytes / 3) * 4;
  if (text.length - start > 2 * maxEncodedLength + 64) {
    throw tooLarge(maxBytes, `the base64 text is ${text.length - start} characters`);
  }
  try {
    // Past this bound the length alone cannot rule out exceeding the cap: count exactly first.
    if (Math.floor(((text.length - start) * 3) / 4) > maxBytes) {
      const size = measureBase64(text, start);
      if (size > maxBytes) throw tooLarge(maxBytes, `the base64 source decodes to ${size} bytes`);
    }
    const bytes = decodeBase64(text, start);
    if (bytes.length === 0) throw invalid("the base64 source is empty");
    return bytes;
  } catch (error) {
    if (!(error instanceof Base64Error)) throw error;
    throw invalid(`not valid base64: ${error.message} (at character ${error.position})`);
  }
}
