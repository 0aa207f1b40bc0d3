import { decodeBase64, encodeBase64 } from "../../contracts/encoding/base64.ts";

// Webhook secrets must be recoverable (we sign with them), so they are sealed rather than hashed:
// AES-256-GCM under a key derived from SIGNING_SECRET, with a fresh 96-bit nonce per value.
const PREFIX = "sealed.v1.";

async function sealingKey(masterSecret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(masterSecret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode("pixelpress secret sealing v1") },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function seal(masterSecret: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await sealingKey(masterSecret);
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plaintext));
  const out = new Uint8Array(iv.length + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.length);
  return PREFIX + encodeBase64(out, "url");
}

export async function unseal(masterSecret: string, sealed: string): Promise<string> {
  if (!sealed.startsWith(PREFIX)) throw new Error("not a sealed value");
  const bytes = new Uint8Array(decodeBase64(sealed.slice(PREFIX.length)));
  const key = await sealingKey(masterSecret);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.subarray(0, 12) }, key, bytes.subarray(12));
  return new TextDecoder().decode(plain);
}
