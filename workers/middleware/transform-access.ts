// The URL-transform route's middleware chain. Its URLs sit in <img> tags, so there is no API key
// header: the key_id in the path names the key (and so the caller), an optional signature guards
// the URL. An edge-cache hit is answered before the rate limit, since it costs no D1 or R2 read.
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { negotiateFormatClass, negotiateQuality } from "../../contracts/transform/negotiate.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { parseTransform, type TransformSpec } from "../../contracts/transform/tokens.ts";
import type { AppEnv } from "../hono-env.ts";
import { canonicalPath, checkTransformSignature } from "../transform/check-signature.ts";
import { derivativeResponse, type VaryHeader } from "../transform/derivative-response.ts";
import type { DerivativeIdentity } from "../transform/derivative-store.ts";
import { edgeCacheKey, matchEdgeCache } from "../transform/edge-cache.ts";
import { findTransformKey, type TransformKey } from "../transform/transform-key.ts";

/** One transform request after the checks that run before the edge cache. */
export interface TransformRequest {
  key: TransformKey;
  fileId: string;
  /** The transform to make: as signed, with q_auto's level lowered under Save-Data. */
  spec: TransformSpec;
  identity: DerivativeIdentity;
  cacheKey: Request;
  vary: VaryHeader[];
  ifNoneMatch: string | undefined;
}

type TransformParams = z.ZodType<{ key_id: string; transform: string; file_id: string }>;

/**
 * Authenticates by the key in the path: an unknown or revoked key is a 404, a missing or wrong
 * signature (where the account requires one) a 403. Sets the caller like `authenticate` does.
 * Route middleware runs before the route's validators, so the path is checked against the
 * route's own schema here first.
 */
export const authenticateTransformKey = (paramsSchema: TransformParams) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const parsed = paramsSchema.safeParse(c.req.param());
    if (!parsed.success) throw validationProblem(parsed.error.issues, "param");
    await authenticate(c, parsed.data);
    await next();
  });

async function authenticate(c: Context<AppEnv>, params: { key_id: string; transform: string; file_id: string }): Promise<void> {
  const { key_id: keyId, file_id: fileId } = params;
  const asked = parseTransform(params.transform);
  const key = await findTransformKey(c.env, keyId);
  await checkTransformSignature(key, canonicalPath(keyId, canonicalTransform(asked), fileId), asked.signature);

  // The URL is signed as written; the derivative is the one Save-Data negotiates, so q_auto under
  // Save-Data is q_auto:eco's derivative (one cache entry, one stored copy, one charge).
  const { spec, variesOnSaveData } = negotiateQuality(asked, c.req.header("Save-Data"));
  const negotiatedClass = negotiateFormatClass(spec, c.req.header("Accept"));
  const variesOnAccept = negotiatedClass !== undefined;
  const formatClass = negotiatedClass ?? "";
  const identity: DerivativeIdentity = { accountId: key.accountId, fileId, canonical: canonicalTransform(spec), formatClass };
  const vary: VaryHeader[] = [...(variesOnAccept ? ["Accept" as const] : []), ...(variesOnSaveData ? ["Save-Data" as const] : [])];
  c.set("caller", { accountId: key.accountId, keyId: key.keyId, plan: key.plan, scopes: key.scopes });
  c.set("transform", {
    key,
    fileId,
    spec,
    identity,
    cacheKey: edgeCacheKey(identity),
    vary,
    ifNoneMatch: c.req.header("If-None-Match"),
  });
}

/** Answers from this data centre's cache when it holds the derivative; otherwise on down the chain. */
export const serveEdgeCacheHit = createMiddleware<AppEnv>(async (c, next) => {
  const request = c.get("transform");
  const cached = await matchEdgeCache(request.cacheKey, request.vary);
  if (cached) return derivativeResponse(cached.body, cached.meta, "edge", request.ifNoneMatch);
  await next();
});
