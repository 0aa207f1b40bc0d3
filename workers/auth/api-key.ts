import { encodeBase62, isBase62, randomBase62 } from "../crypto/base62.ts";
import { crc32 } from "../crypto/crc32.ts";
import { newId } from "../crypto/ids.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";

// ak_live_ + 32 random base62 characters + 6 characters of CRC32 checksum. The fixed prefix lets
// secret scanners find leaked keys; the checksum rejects typos before any database lookup.
const PREFIX = "ak_live_";
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

export interface NewApiKey {
  keyId: string;
  secret: string;
  secretHash: string;
  displayPrefix: string;
}

function checksum(body: string): string {
  return encodeBase62(crc32(PREFIX + body), CHECKSUM_LENGTH);
}

export async function generateApiKey(): Promise<NewApiKey> {
  const body = randomBase62(BODY_LENGTH);
  const secret = PREFIX + body + checksum(body);
  return {
    keyId: newId("key"),
    secret,
    secretHash: await hashApiKey(secret),
    displayPrefix: secret.slice(0, PREFIX.length + 4),
  };
}

export function isWellFormedApiKey(secret: string): boolean {
  if (!secret.startsWith(PREFIX) || secret.length !== PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const rest = secret.slice(PREFIX.length);
  if (!isBase62(rest)) return false;
  return checksum(rest.slice(0, BODY_LENGTH)) === rest.slice(BODY_LENGTH);
}

export function hashApiKey(secret: string): Promise<string> {
  return sha256Hex(secret);
}
