import { describe, expect, it } from "vitest";
import { toHex } from "../../contracts/crypto/sha256.ts";
import { presignUpload } from "./presign-upload.ts";
import type { UploadEndpoint } from "./upload-endpoint.ts";

const endpoint: UploadEndpoint = {
  bucketUrl: "https://0123abcd.r2.cloudflarestorage.com/pixelpress-files",
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};
const now = Date.UTC(2026, 10, 23, 10, 0, 0);
const key = "accounts/acct_X/file_Y";

// An independent SigV4 query-signature check (AWS "Authenticating Requests: Using Query
// Parameters"), written from the specification rather than with the library under test.
const encoder = new TextEncoder();
async function hmac(keyBytes: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const cryptoKey = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data)));
}
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function expectedSignature(url: URL, method: string, headers: Record<string, string>, secret: string): Promise<string> {
  const params = [...url.searchParams].filter(([name]) => name !== "X-Amz-Signature").map(([n, v]) => [uriEncode(n), uriEncode(v)]);
  params.sort(([a], [b]) => (a! < b! ? -1 : 1));
  const signedHeaders = url.searchParams.get("X-Amz-SignedHeaders")!.split(";");
  const lower = Object.fromEntries(Object.entries({ ...headers, host: url.host }).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalRequest = [
    method,
    url.pathname,
    params.map(([n, v]) => `${n}=${v}`).join("&"),
    signedHeaders.map((h) => `${h}:${lower[h]}\n`).join(""),
    signedHeaders.join(";"),
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const amzDate = url.searchParams.get("X-Amz-Date")!;
  const scope = url.searchParams.get("X-Amz-Credential")!.split("/").slice(1).join("/");
  const digest = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(canonicalRequest))));
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, digest].join("\n");
  let signingKey = new Uint8Array(encoder.encode(`AWS4${secret}`));
  for (const part of scope.split("/")) signingKey = await hmac(signingKey, part);
  return toHex(await hmac(signingKey, stringToSign));
}

describe("presignUpload", () => {
  it("presigns a 15-minute PUT to the object key with Content-Length and Content-Type signed", async () => {
    const upload = await presignUpload(endpoint, key, { contentType: "application/pdf", sizeBytes: 123_456 }, now);
    expect(upload.method).toBe("PUT");
    expect(upload.headers).toEqual({ "Content-Type": "application/pdf", "Content-Length": "123456" });
    expect(upload.expiresAt).toBe(now + 15 * 60_000);

    const url = new URL(upload.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${endpoint.bucketUrl}/${key}`);
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Credential")).toBe("AKIDEXAMPLE/20261123/auto/s3/aws4_request");
    expect(url.searchParams.get("X-Amz-Date")).toBe("20261123T100000Z");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host");

    const signature = url.searchParams.get("X-Amz-Signature");
    expect(signature).toBe(await expectedSignature(url, "PUT", upload.headers, endpoint.secretAccessKey));
    // What the storage recomputes for a PUT with another length or type, or another key: no match.
    expect(signature).not.toBe(await expectedSignature(url, "PUT", { ...upload.headers, "Content-Length": "123457" }, endpoint.secretAccessKey));
    expect(signature).not.toBe(await expectedSignature(url, "PUT", { ...upload.headers, "Content-Type": "text/html" }, endpoint.secretAccessKey));
    expect(signature).not.toBe(await expectedSignature(url, "GET", upload.headers, endpoint.secretAccessKey));
  });
});
