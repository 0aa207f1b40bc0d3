// Test-only reference: HMAC-SHA256 built by hand from RFC 2104 (key padding, ipad/opad, two
// SHA-256 digests), a code path independent of crypto.subtle's HMAC that the signers use.
// The workers program has no Node types, so node:crypto is not the reference here.
const BLOCK = 64;

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
}

export async function referenceHmacSha256(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const block = new Uint8Array(BLOCK);
  block.set(key.length > BLOCK ? await sha256(key) : key);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256(outer, await sha256(inner, message));
}

