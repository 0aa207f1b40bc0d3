// Signed transform URLs: the `s_` token is HMAC-SHA256(secret, canonical path), truncated to
// 16 bytes (128 bits: forging one still takes 2^128 guesses) and base64url-encoded without
// padding into SIGNATURE_LENGTH characters, short enough to sit in an <img src>. It signs the
// canonical path, so any spelling of the same transform carries the same signature.
import { encodeBase64 } from "../encoding/base64.ts";
import { SIGNATURE_LENGTH } from "./token-values.ts";

const SIGNATURE_BYTES = 16;
const encoder = new TextEncoder();

async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

export async function transformSignature(secret: string, canonicalPath: string): Promise<string> {
  const mac = await hmacSha256(secret, canonicalPath);
  return encodeBase64(mac.subarray(0, SIGNATURE_BYTES), "url");
}

// Compares the encoded strings in constant time (no early exit), so response timing does not
// reveal how many leading characters of a guess were right.
export async function verifyTransformSignature(secret: string, canonicalPath: string, signature: string): Promise<boolean> {
  const expected = await transformSignature(secret, canonicalPath);
  if (signature.length !== SIGNATURE_LENGTH) return false;
  let difference = 0;
  for (let i = 0; i < SIGNATURE_LENGTH; i++) difference |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return difference === 0;
}
