import { describe, expect, it } from "vitest";
import {
  WebhookVerificationError,
  generateWebhookSecret,
  parseWebhookSecret,
  signWebhook,
  verifyWebhook,
  type WebhookHeaders,
} from "./signature.ts";
import { referenceHmacSha256 } from "./reference-hmac-sha256.ts";

// The test vector published with the Standard Webhooks reference libraries.
const vector = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const signedAt = new Date(vector.timestamp * 1000);

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

// The independent reference: RFC 2104 HMAC-SHA256 keyed with the decoded secret, atob/btoa.
async function referenceSignature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = fromBase64(secret.slice("whsec_".length));
  return `v1,${toBase64(await referenceHmacSha256(key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)))}`;
}

async function failure(run: Promise<void>): Promise<WebhookVerificationError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error("verified");
}

function headersFor(signature: string, id = vector.id, timestamp = vector.timestamp): Headers {
  return new Headers({ "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature });
}

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks test vector", async () => {
    expect(await referenceSignature(vector.secret, vector.id, vector.timestamp, vector.body)).toBe(vector.signature);
    expect(await signWebhook(vector)).toBe(vector.signature);
  });

  it("agrees with node:crypto on fresh secrets and bodies", async () => {
    for (const body of ["", "{}", JSON.stringify({ type: "job.succeeded", data: { job_id: "job_1", note: "é ✓ 🎉" } })]) {
      const secret = generateWebhookSecret();
      const timestamp = 1_900_000_000;
      const reference = await referenceSignature(secret, "msg_1", timestamp, body);
      expect(await signWebhook({ id: "msg_1", timestamp, body, secret })).toBe(reference);
      expect(await signWebhook({ id: "msg_1", timestamp, body: new TextEncoder().encode(body), secret })).toBe(reference);
    }
  });
});

describe("verifyWebhook", () => {
  it("accepts the test vector within the tolerance", async () => {
    await verifyWebhook({ headers: headersFor(vector.signature), body: vector.body, secret: vector.secret, now: signedAt });
    const later = new Date(signedAt.getTime() + 299_000);
    await verifyWebhook({ headers: headersFor(vector.signature), body: vector.body, secret: vector.secret, now: later });
  });

  it("reads Node-style header records, any case, and a secret without its prefix", async () => {
    const headers: WebhookHeaders = {
      "Webhook-Id": vector.id,
      "webhook-timestamp": [String(vector.timestamp)],
      "WEBHOOK-SIGNATURE": vector.signature,
    };
    const secret = vector.secret.slice("whsec_".length);
    await verifyWebhook({ headers, body: new TextEncoder().encode(vector.body), secret, now: signedAt });
  });

  it("accepts any matching v1 signature among several, skipping others", async () => {
    const list = `v1a,c29tZXRoaW5n v1,bm9wZQ== v2,${vector.signature.slice(3)} v1,%%% ${vector.signature}`;
    await verifyWebhook({ headers: headersFor(list), body: vector.body, secret: vector.secret, now: signedAt });
  });

  it("round-trips with a generated secret", async () => {
    const secret = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: "job.failed", timestamp: new Date().toISOString(), data: { job_id: "job_9" } });
    const signature = await signWebhook({ id: "msg_9", timestamp, body, secret });
    await verifyWebhook({ headers: headersFor(signature, "msg_9", timestamp), body, secret });
  });

  it.each([
    ["a changed body", { body: '{"test": 2432232315}' }],
    ["re-serialized JSON", { body: JSON.stringify(JSON.parse(vector.body)) }],
    ["another secret", { secret: generateWebhookSecret() }],
    ["a changed id", { headers: headersFor(vector.signature, "msg_other") }],
    ["a changed timestamp", { headers: headersFor(vector.signature, vector.id, vector.timestamp + 1), now: new Date((vector.timestamp + 1) * 1000) }],
    ["a flipped signature bit", { headers: headersFor(vector.signature.replace("g0hM", "g0hN")) }],
    ["a truncated signature", { headers: headersFor(vector.signature.slice(0, -4)) }],
    ["only other versions", { headers: headersFor(`v1a,${vector.signature.slice(3)}`) }],
  ])("refuses %s", async (_name, change) => {
    const problem = await failure(
      verifyWebhook({ headers: headersFor(vector.signature), body: vector.body, secret: vector.secret, now: signedAt, ...change }),
    );
    expect(problem.reason).toBe("no_matching_signature");
  });

  it("refuses stale and future timestamps, even with a valid signature", async () => {
    const base = { headers: headersFor(vector.signature), body: vector.body, secret: vector.secret };
    const stale = await failure(verifyWebhook({ ...base, now: new Date(signedAt.getTime() + 301_000) }));
    expect(stale.reason).toBe("timestamp_too_old");
    const future = await failure(verifyWebhook({ ...base, now: new Date(signedAt.getTime() - 301_000) }));
    expect(future.reason).toBe("timestamp_in_future");
    await verifyWebhook({ ...base, now: new Date(signedAt.getTime() + 3_600_000), toleranceSeconds: 3600 });
  });

  it("refuses missing headers and malformed timestamps", async () => {
    const complete = { "webhook-id": vector.id, "webhook-timestamp": String(vector.timestamp), "webhook-signature": vector.signature };
    for (const name of Object.keys(complete)) {
      const headers = { ...complete, [name]: undefined };
      const problem = await failure(verifyWebhook({ headers, body: vector.body, secret: vector.secret, now: signedAt }));
      expect(problem.reason).toBe("missing_headers");
    }
    for (const timestamp of ["1614265330.5", "-1", "1e9", "soon", "99999999999999999999"]) {
      const headers = { ...complete, "webhook-timestamp": timestamp };
      const problem = await failure(verifyWebhook({ headers, body: vector.body, secret: vector.secret, now: signedAt }));
      expect(problem.reason).toBe("invalid_timestamp");
    }
  });
});

describe("webhook secrets", () => {
  it("generates whsec_ plus 24 random bytes", () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(a).not.toBe(b);
    expect(parseWebhookSecret(a)).toEqual(fromBase64(a.slice(6)));
  });

  it("refuses secrets that are not base64 or of the wrong size", () => {
    expect(() => parseWebhookSecret("whsec_not base64!")).toThrow(TypeError);
    expect(() => parseWebhookSecret(`whsec_${toBase64(new Uint8Array(16))}`)).toThrow(/24 to 64 bytes, not 16/);
    expect(() => parseWebhookSecret(`whsec_${toBase64(new Uint8Array(65))}`)).toThrow(/not 65/);
    expect(() => parseWebhookSecret(`whsec_${toBase64(new Uint8Array(64))}`)).not.toThrow();
  });
});
