// Fetches an origin path's original through the SSRF guard, under a URL source's byte and time
// caps, conditionally when a copy is already kept. An S3 origin's requests are signed (SigV4,
// aws4fetch) on every hop; the guard still checks each one, so a bucket endpoint that redirects
// inward is refused like any other URL.
import { AwsClient } from "aws4fetch";
import { SYNC_SOURCE_MAX_BYTES } from "../../contracts/envelope.ts";
import { originUrl } from "../../contracts/transform/origin-path.ts";
import { unseal } from "../crypto/seal.ts";
import type { Bindings } from "../env.ts";
import { guardedRevalidate, type RevalidatedSource } from "../sources/guarded-fetch.ts";
import { URL_CONNECT_TIMEOUT_MS, URL_TIMEOUT_MS } from "../sources/resolve-source.ts";
import type { OriginRecord } from "./origin-store.ts";

export type FetchEnv = Pick<Bindings, "ALLOW_LOOPBACK_URLS" | "SIGNING_SECRET">;

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

async function signingFetch(env: FetchEnv, origin: OriginRecord): Promise<typeof fetch> {
  const aws = new AwsClient({
    accessKeyId: origin.s3_access_key_id ?? "",
    secretAccessKey: await unseal(env.SIGNING_SECRET, origin.s3_secret_sealed ?? ""),
    service: "s3",
    region: origin.s3_region ?? "auto",
    retries: 0,
  });
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const signed = await aws.sign(input instanceof Request ? input.url : String(input), { method: "GET", headers: init?.headers });
    return fetch(signed, { redirect: "manual", signal: init?.signal });
  });
}

export async function fetchOriginal(env: FetchEnv, origin: OriginRecord, path: string, validators: Validators | null): Promise<RevalidatedSource> {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers["If-None-Match"] = validators.etag;
  if (validators?.lastModified) headers["If-Modified-Since"] = validators.lastModified;
  return guardedRevalidate(originUrl(origin.base_url, path), {
    allowLoopback: env.ALLOW_LOOPBACK_URLS === "true",
    maxBytes: SYNC_SOURCE_MAX_BYTES,
    timeoutMs: URL_TIMEOUT_MS,
    connectTimeoutMs: URL_CONNECT_TIMEOUT_MS,
    headers,
    fetchImpl: origin.kind === "s3" ? await signingFetch(env, origin) : undefined,
  });
}
