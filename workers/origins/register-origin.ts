// Turns a registration request into an origin record: the base URL (or the S3 endpoint) passes
// the SSRF guard here, and again on every fetch and every redirect (fetch-original.ts). Plain
// http is for local development only, where loopback URLs are allowed.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { seal } from "../crypto/seal.ts";
import type { Bindings } from "../env.ts";
import { checkUrl } from "../sources/check-url.ts";
import type { NewOrigin } from "./origin-store.ts";

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region?: string;
  access_key_id: string;
  secret_access_key: string;
}

export type OriginRegistration = { name: string; base_url: string } | { name: string; s3: S3Settings };

type RegisterEnv = Pick<Bindings, "ALLOW_LOOPBACK_URLS" | "SIGNING_SECRET">;

function checkedBase(env: RegisterEnv, url: string, field: string): URL {
  const allowLoopback = env.ALLOW_LOOPBACK_URLS === "true";
  const parsed = checkUrl(url, { allowLoopback });
  if (parsed.protocol !== "https:" && !allowLoopback) throw new ProblemError("source_invalid_url", `${field} must be https.`);
  if (parsed.search !== "" || parsed.hash !== "") throw new ProblemError("source_invalid_url", `${field} must not hold a query or fragment; paths are appended to it.`);
  return parsed;
}

function withSlash(href: string): string {
  return href.endsWith("/") ? href : `${href}/`;
}

export async function originRecordFor(env: RegisterEnv, accountId: string, request: OriginRegistration): Promise<NewOrigin> {
  if ("base_url" in request) {
    const base = checkedBase(env, request.base_url, "base_url");
    return { account_id: accountId, name: request.name, kind: "http", base_url: withSlash(base.href), s3_region: null, s3_access_key_id: null, s3_secret_sealed: null };
  }
  const { s3 } = request;
  const endpoint = checkedBase(env, s3.endpoint, "s3.endpoint");
  return {
    account_id: accountId,
    name: request.name,
    kind: "s3",
    base_url: `${withSlash(endpoint.href)}${s3.bucket}/`,
    s3_region: s3.region ?? "auto",
    s3_access_key_id: s3.access_key_id,
    s3_secret_sealed: await seal(env.SIGNING_SECRET, s3.secret_access_key),
  };
}
