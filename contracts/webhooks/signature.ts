// Standard Webhooks signatures (https://www.standardwebhooks.com): the edge signs each delivery
// with signWebhook, and customers check it with verifyWebhook, which the TS client re-exports.
// Only Web Crypto and TextEncoder are used, so this runs unchanged in Node 22, browsers,
// Deno and Workers.
//
// Recipe for a receiver (Node, Hono, any framework; read the body as text, unparsed):
//   const body = await request.text();
//   await verifyWebhook({ headers: request.headers, body, secret: process.env.WEBHOOK_SECRET });
//   const event = JSON.parse(body);   // only after verification
// verifyWebhook throws WebhookVerificationError (with `reason`) on anything but a valid,
// fresh signature; answer 400 then. Deduplicate on `webhook-id`: retries repeat it.
import { Base64Error, decodeBase64, encodeBase64 } from "../encoding/base64.ts";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
// The spec asks for 24 to 64 random bytes.
export const MIN_WEBHOOK_SECRET_BYTES = 24;
export const MAX_WEBHOOK_SECRET_BYTES = 64;
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const WEBHOOK_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const;

export type WebhookVerificationFailure =
  | "missing_headers"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "no_matching_signature";

export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const encoder = new TextEncoder();

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + encodeBase64(crypto.getRandomValues(new Uint8Array(MIN_WEBHOOK_SECRET_BYTES)));
}

// The HMAC key is the base64-decoded part after `whsec_`; like the reference libraries, the
// prefix may be left off. Throws TypeError for anything that is not such a secret.
export function parseWebhookSecret(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = decodeBase64(encoded);
  } catch (error) {
    if (!(error instanceof Base64Error)) throw error;
    throw new TypeError(`the webhook secret is not whsec_ followed by base64: ${error.message}`, { cause: error });
  }
  if (key.length < MIN_WEBHOOK_SECRET_BYTES || key.length > MAX_WEBHOOK_SECRET_BYTES) {
    throw new TypeError(`the webhook secret must hold ${MIN_WEBHOOK_SECRET_BYTES} to ${MAX_WEBHOOK_SECRET_BYTES} bytes, not ${key.length}`);
  }
  return key;
}

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", parseWebhookSecret(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

// `${id}.${timestamp}.${body}`, with the body's exact bytes.
function signedContent(id: string, timestamp: number | string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const payload = typeof body === "string" ? encoder.encode(body) : body;
  const content = new Uint8Array(prefix.length + payload.length);
  content.set(prefix);
  content.set(payload, prefix.length);
  return content;
}

export interface WebhookToSign {
  id: string;
  // Unix seconds, the same value sent in `webhook-timestamp`.
  timestamp: number;
  body: string | Uint8Array;
  secret: string;
}

// Returns the `webhook-signature` value: "v1,<base64 HMAC-SHA256>".
export async function signWebhook({ id, timestamp, body, secret }: WebhookToSign): Promise<string> {
  const key = await hmacKey(secret, "sign");
  const mac = await crypto.subtle.sign("HMAC", key, signedContent(id, timestamp, body));
  return `v1,${encodeBase64(new Uint8Array(mac))}`;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(" ") : found;
}

export interface WebhookToVerify {
  headers: WebhookHeaders;
  // The raw request body, exactly as received: re-serialized JSON will not verify.
  body: string | Uint8Array;
  secret: string;
  toleranceSeconds?: number;
  now?: Date;
}

export async function verifyWebhook({
  headers,
  body,
  secret,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now = new Date(),
}: WebhookToVerify): Promise<void> {
  const id = header(headers, WEBHOOK_HEADERS.id);
  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are all required");
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not a Unix time in seconds");
  }
  // Bounding the age is what stops a captured delivery from being replayed later.
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (age > toleranceSeconds) throw new WebhookVerificationError("timestamp_too_old", `the webhook was signed ${age} s ago`);
  if (age < -toleranceSeconds) throw new WebhookVerificationError("timestamp_in_future", `the webhook is signed ${-age} s in the future`);

  const key = await hmacKey(secret, "verify");
  const content = signedContent(id, timestamp, body);
  // Several signatures appear while a secret is being rotated; any v1 match is enough.
  // crypto.subtle.verify compares in constant time.
  for (const entry of signatures.split(" ")) {
    const [version, encoded] = entry.split(",", 2);
    if (version !== "v1" || !encoded) continue;
    let mac: Uint8Array<ArrayBuffer>;
    try {
      mac = decodeBase64(encoded);
    } catch (error) {
      if (!(error instanceof Base64Error)) throw error;
      continue;
    }
    if (await crypto.subtle.verify("HMAC", key, mac, content)) return;
  }
  throw new WebhookVerificationError("no_matching_signature", "no v1 signature in webhook-signature matches this body and secret");
}
