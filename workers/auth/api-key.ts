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

// A key's public id (`key_` and 20 base62 characters, crypto/ids.ts), which lists and the console show.
const KEY_ID = /^key_[0-9A-Za-z]{20}$/;

/** Whether a value sent as the secret is a key's id instead, pasted from a list. */
export function isApiKeyId(value: string): boolean {
  return KEY_ID.test(value);
}

/** What to say about a bearer value that is no well-formed secret. */
export function malformedKeyDetail(value: string): string {
  if (isApiKeyId(value)) {
    return `\`${value}\` is a key id, not its secret. Send the secret (\`${PREFIX}...\`), which was shown once when the key was created (POST /v1/keys or the console's Keys tab); a lost secret cannot be shown again, so create a new key.`;
  }
  return `The API key is malformed: a secret is \`${PREFIX}\` and ${BODY_LENGTH + CHECKSUM_LENGTH} letters and digits.`;
}

export function hashApiKey(secret: string): Promise<string> {
  return sha256Hex(secret);
}
