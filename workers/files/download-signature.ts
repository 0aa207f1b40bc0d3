// Signed download URLs: `sig` is base64url HMAC-SHA256(SIGNING_SECRET, "<file_id>.<expires>.<account>").
// The signature is the only credential, so a link works in an email or an <a href> without an
// API key, for that one file and until `expires` (Unix seconds). The link names the file's
// account, whose file shard holds the file (workers/shards/file-shard.ts); a link signed before
// links named it (`<file_id>.<expires>`, no `account`) still works, its account read from the
// shared report.
import { constantTimeEqual } from "../../contracts/crypto/constant-time.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";

const encoder = new TextEncoder();

async function downloadSignature(secret: string, fileId: string, expires: number, accountId: string | null): Promise<string> {
  // An empty key would make every link forgeable; refuse to sign or verify with one.
  if (!secret) throw new Error("SIGNING_SECRET is not set");
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(accountId === null ? `${fileId}.${expires}` : `${fileId}.${expires}.${accountId}`));
  return encodeBase64(new Uint8Array(mac), "url");
}

export function downloadPath(fileId: string): string {
  return `/v1/files/${encodeURIComponent(fileId)}/content`;
}

// A durable file's link lasts until the file is deleted, and a deleted file answers 410 whatever
// its link says: so its link carries the latest time the URL format holds (12 digits of seconds).
const UNTIL_DELETED_SECONDS = 999_999_999_999;

/**
 * `expiresAtMs` is epoch milliseconds, like every stored timestamp, or null for a durable file's
 * link (valid until the file is deleted); the URL carries whole seconds.
 */
export async function signedDownloadUrl(secret: string, baseUrl: string, file: { id: string; account_id: string; expires_at: number | null }): Promise<string> {
  const expires = file.expires_at === null ? UNTIL_DELETED_SECONDS : Math.floor(file.expires_at / 1000);
  const sig = await downloadSignature(secret, file.id, expires, file.account_id);
  return `${baseUrl.replace(/\/+$/, "")}${downloadPath(file.id)}?account=${encodeURIComponent(file.account_id)}&expires=${expires}&sig=${sig}`;
}

export type DownloadSignatureCheck = "valid" | "invalid" | "expired";

/** `accountId` is the link's `account`, null for a link signed before links named it. */
export async function checkDownloadSignature(
  secret: string,
  link: { fileId: string; accountId: string | null; expires: string; sig: string },
  now = Date.now(),
): Promise<DownloadSignatureCheck> {
  const { fileId, accountId, expires, sig } = link;
  if (!/^\d{1,12}$/.test(expires)) return "invalid";
  const expected = await downloadSignature(secret, fileId, Number(expires), accountId);
  if (!constantTimeEqual(expected, sig)) return "invalid";
  return Number(expires) * 1000 <= now ? "expired" : "valid";
}
