// The URL-transform route's middleware chain. Its URLs sit in <img> tags, so there is no API key
// header: the key_id in the path names the key (and so the caller), an optional signature guards
// the URL. An edge-cache hit is answered before the rate limit, since it costs no D1 or R2 read.
// The same two steps, as plain functions, answer a hit before the app's dispatch (edge-hit.ts).
import { createMiddleware } from "hono/factory";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { negotiateFormatClass, negotiateQuality } from "../../contracts/transform/negotiate.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import type { Bindings } from "../env.ts";
import { canonicalPath, checkTransformSignature, signedSource } from "../transform/check-signature.ts";
import { derivativeResponse, type VaryHeader } from "../transform/derivative-response.ts";
import { edgeCacheKey, matchEdgeCache, originEdgeCacheKey } from "../transform/edge-cache.ts";
import { findTransformKey } from "../transform/transform-key.ts";
import { parseTransformAddress } from "../transform/transform-address.ts";
import type { TransformEnv, TransformRequest } from "../transform/transform-request.ts";

/**
 * Authenticates by the key in the path: an unknown or revoked key is a 404, a missing or wrong
 * signature (where the account requires one) a 403. Then negotiates what to serve and names its
 * edge-cache entry. Throws the request's problem.
 */
export async function readTransformRequest(env: Pick<Bindings, "DB" | "SIGNING_SECRET" | "PUBLIC_BASE_URL">, request: Request): Promise<TransformRequest> {
  const { keyId, transform, target } = parseTransformAddress(request.url);
  const asked = parseTransform(transform);
  const key = await findTransformKey(env, keyId);
  const askedCanonical = canonicalTransform(asked);
  await checkTransformSignature(key, canonicalPath(keyId, askedCanonical, signedSource(target)), asked.signature);
  // The URL is signed as written; the derivative is the one Save-Data negotiates, so q_auto under
  // Save-Data is q_auto:eco's derivative (one cache entry, one stored copy, one charge).
  const { spec, variesOnSaveData } = negotiateQuality(asked, request.headers.get("Save-Data"));
  const formatClass = negotiateFormatClass(spec, request.headers.get("Accept")) ?? null;
  const variesOnAccept = formatClass !== null;
  const canonical = spec === asked ? askedCanonical : canonicalTransform(spec);
  const vary: VaryHeader[] = [...(variesOnAccept ? ["Accept" as const] : []), ...(variesOnSaveData ? ["Save-Data" as const] : [])];
  const cacheKey =
    target.kind === "file"
      ? edgeCacheKey(env, { accountId: key.accountId, fileId: target.fileId, canonical, formatClass })
      : originEdgeCacheKey(env, key.accountId, target.name, target.path, canonical, formatClass);
  return { key, target, spec, canonical, formatClass, cacheKey, vary, ifNoneMatch: request.headers.get("If-None-Match") ?? undefined };
}

/** This data centre's cached derivative as the reply, or null when the cache does not hold it. */
export async function edgeCacheHit(request: TransformRequest): Promise<Response | null> {
  const cached = await matchEdgeCache(request.cacheKey, request.vary);
  return cached ? derivativeResponse(cached.body, cached.meta, "edge", request.ifNoneMatch) : null;
}

/**
 * Sets the caller like `authenticate` does, and the transform request for the rest of the chain.
 * Route middleware runs before any validator, so the path is checked here first.
 */
export const authenticateTransformKey = createMiddleware<TransformEnv>(async (c, next) => {
  const transform = await readTransformRequest(c.env, c.req.raw);
  const { key } = transform;
  c.set("caller", { accountId: key.accountId, keyId: key.keyId, plan: key.plan, scopes: key.scopes });
  c.set("transform", transform);
  await next();
});

/** Answers from this data centre's cache when it holds the derivative; otherwise on down the chain. */
export const serveEdgeCacheHit = createMiddleware<TransformEnv>(async (c, next) => {
  const hit = await edgeCacheHit(c.get("transform"));
  if (hit) return hit;
  await next();
});
