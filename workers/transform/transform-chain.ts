// The URL-transform route's middleware chain, over the reader's functions (read-transform-request.ts).
// An edge-cache hit is answered before the rate limit, since it costs no D1 or R2 read.
import { createMiddleware } from "hono/factory";
import { capPresetLifetime, edgeCacheHit, readTransformRequest } from "./read-transform-request.ts";
import type { TransformEnv } from "./transform-request.ts";

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

/** The preset lifetime cap on every reply of the route, hits answered before the app's dispatch included (edgeCacheHit). */
export const limitPresetLifetime = createMiddleware<TransformEnv>(async (c, next) => {
  await next();
  capPresetLifetime(c.res.headers, c.get("transform"));
});

/** Answers from this data centre's cache when it holds the derivative; otherwise on down the chain. */
export const serveEdgeCacheHit = createMiddleware<TransformEnv>(async (c, next) => {
  const hit = await edgeCacheHit(c.get("transform"));
  if (hit) return hit;
  await next();
});
