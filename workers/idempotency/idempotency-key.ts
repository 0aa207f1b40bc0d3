import { ProblemError } from "../../contracts/problems/catalogue.ts";

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const BARE = /^[\x21\x23-\x2b\x2d-\x7e]+$/;
const QUOTED = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/**
 * The header value as a bare token (UUIDs, ULIDs, base64) or an RFC 8941 sf-string, which is
 * unescaped so that `abc` and `"abc"` name the same key.
 */
export function parseIdempotencyKey(header: string): string {
  const value = header.trim();
  const quoted = QUOTED.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, "$1") : BARE.test(value) ? value : null;
  if (key === null || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ProblemError(
      "validation_failed",
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, bare or as a quoted string.`,
      { errors: [{ pointer: "/headers/idempotency-key", detail: "invalid Idempotency-Key" }] },
    );
  }
  return key;
}
