// Read: a transform URL becomes a TransformRequest here, and only here. Its URLs sit in <img> tags,
// so there is no API key header: the key_id in the path names the key (and so the caller), an
// optional signature guards the URL. The route's chain (transform-chain.ts) and the early hit
// before the app's dispatch (early-edge-hit.ts) both read it with these functions.
import { canonicalTransform, urlTransform } from "../../contracts/transform/canonical.ts";
import { negotiateTransform } from "../../contracts/transform/negotiate.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { expandedSpec } from "../presets/preset-expansion.ts";
import type { Bindings } from "../env.ts";
import { canonicalPath, checkTransformSignature, signedSource } from "./check-signature.ts";
import { derivativeResponse } from "../derivatives/derivative-response.ts";
import { edgeCacheKey, matchEdgeCache, originEdgeCacheKey } from "../derivatives/edge-cache.ts";
import { MEMO_MS } from "../memo/isolate-memo.ts";
import { findTransformKey } from "./transform-key.ts";
import { parseTransformAddress } from "./transform-address.ts";
import type { TransformRequest } from "./transform-request.ts";

/**
 * Authenticates by the key in the path: an unknown or revoked key is a 404, a missing or wrong
 * signature (where the account requires one) a 403. Then negotiates what to serve and names its
 * edge-cache entry. Throws the request's problem.
 */
export async function readTransformRequest(env: Pick<Bindings, "DB" | "SIGNING_SECRET" | "PUBLIC_BASE_URL">, request: Request): Promise<TransformRequest> {
  const { keyId, transform, target } = parseTransformAddress(request.url);
  const asked = parseTransform(transform);
  const key = await findTransformKey(env, keyId);
  await checkTransformSignature(key, canonicalPath(keyId, urlTransform(asked), signedSource(target)), asked.signature);
  // The URL is signed as written, a preset by its name, w_auto with its bounds; the derivative is
  // its expansion's, and the one the headers negotiate, so q_auto under Save-Data is q_auto:eco's
  // derivative and w_auto under a hinted width its rung's (one cache entry, one stored copy, one charge).
  const expanded = await expandedSpec(env, key.accountId, asked);
  const { spec, formatClass, vary } = negotiateTransform(expanded, request.headers);
  const canonical = canonicalTransform(spec);
  const cacheKey =
    target.kind === "file"
      ? edgeCacheKey(env, { accountId: key.accountId, fileId: target.fileId, canonical, formatClass })
      : originEdgeCacheKey(env, key.accountId, target.name, target.path, canonical, formatClass);
  return { key, target, spec, canonical, preset: asked.preset, formatClass, cacheKey, vary, ifNoneMatch: request.headers.get("If-None-Match") ?? undefined };
}

/** This data centre's cached derivative as the reply, or null when the cache does not hold it. */
export async function edgeCacheHit(request: TransformRequest): Promise<Response | null> {
  const cached = await matchEdgeCache(request.cacheKey, request.vary);
  if (!cached) return null;
  const hit = derivativeResponse(cached.body, cached.meta, "edge", request.ifNoneMatch);
  capPresetLifetime(hit.headers, request);
  return hit;
}

// What a preset's name stands for can change, so its URL is not immutable: browsers and shared
// caches keep it as long as an isolate may keep the preset it expanded.
const PRESET_MAX_AGE = MEMO_MS / 1000;

/** Caps the lifetime a URL naming a preset is cached for (the derivative's own, or PRESET_MAX_AGE). */
export function capPresetLifetime(headers: Headers, request: Pick<TransformRequest, "preset">): void {
  if (request.preset === undefined || !headers.has("Cache-Control")) return;
  const maxAge = /max-age=(\d+)/.exec(headers.get("Cache-Control") ?? "");
  headers.set("Cache-Control", `public, max-age=${Math.min(PRESET_MAX_AGE, maxAge ? Number(maxAge[1]) : PRESET_MAX_AGE)}`);
}
