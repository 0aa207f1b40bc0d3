// Everything past the edge cache, for file and origin sources alike: the derivative kept in R2,
// else computed (at the edge or the origin, see compute-derivative.ts), stored, charged once and
// put in the edge cache. Every request that reaches here costs D1 and R2 reads.
import { transformChargeKey } from "../billing/charge-key.ts";
import { chargeOnce, requireBalance } from "../billing/charge-once.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { transformPrice } from "../../contracts/pricing.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { derivativeContentTypes, outputChoice } from "../../contracts/transform/output-format.ts";
import type { Bindings } from "../env.ts";
import { readObject } from "../objects/file-objects.ts";
import { dropIfFileDeleted } from "../files/file-lifecycle.ts";
import { recordPresetDerivative } from "../presets/preset-derivative-store.ts";
import { computeDerivative } from "./compute-derivative.ts";
import { derivativeResponse, matchesIfNoneMatch, type DerivativeMeta } from "../derivatives/derivative-response.ts";
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";
import { countDerivatives, findDerivative, storeDerivative } from "../derivatives/derivative-store.ts";
import { putEdgeCache } from "../derivatives/edge-cache.ts";
import type { TransformRequest } from "./transform-request.ts";
import { findOverlay, readOverlay } from "./transform-overlay.ts";
import { resolveTransformSource, type TransformSource } from "./transform-source.ts";

type ServeEnv = Pick<Bindings, "DB" | "FILES" | "ORIGIN_URL" | "ORIGIN_SECRET" | "ALLOW_LOOPBACK_URLS" | "SIGNING_SECRET" | "PUBLIC_BASE_URL">;

export async function serveTransform(env: ServeEnv, request: TransformRequest): Promise<Response> {
  const op = resolveTransform(request.spec);
  // A missing or foreign overlay is refused before the source is read, or fetched from its origin.
  const overlayRef = await findOverlay(env.DB, request.key.accountId, op);
  const source = await resolveTransformSource(env, request);
  const { identity } = source;
  const metaOf = (etag: string, contentType: string, bytes: number): DerivativeMeta => ({
    etag,
    contentType,
    bytes,
    vary: request.vary,
    ...(source.freshUntil === undefined ? {} : { freshUntil: source.freshUntil }),
    ...(source.stale ? { stale: true } : {}),
  });

  const stored = await findDerivative(env.DB, identity);
  const object = stored ? await env.FILES.get(stored.r2_key) : null;
  if (stored && object) {
    const meta = metaOf(stored.etag, stored.content_type, object.size);
    const body = await cacheDerivative(env, request, source, meta, object.body, stored.r2_key);
    return derivativeResponse(body, meta, "r2", request.ifNoneMatch);
  }
  if (!stored && (await countDerivatives(env.DB, identity.accountId, identity.fileId)) >= MAX_DERIVATIVES_PER_FILE) {
    throw new ProblemError("derivative_limit", `This source already has ${MAX_DERIVATIVES_PER_FILE} distinct transforms.`, {
      extensions: { limit: MAX_DERIVATIVES_PER_FILE },
    });
  }
  // An overlay that is no image is refused before the balance is asked or anything computed.
  const overlay = await readOverlay(env, overlayRef);
  const price = transformPrice();
  await requireBalance(env.DB, identity.accountId, price);
  const choice = outputChoice(op.format, identity.formatClass ?? undefined);
  const derivative = await computeDerivative(env, identity.accountId, source.original, op, choice, overlay);
  const meta = metaOf(source.etag(derivative.sha256), derivativeContentTypes[derivative.format], derivative.size);
  // The ledger's unique charge key bills a derivative once ever: after an eviction from both the
  // edge cache and R2 it is computed again but not charged again. An origin path's key names the
  // original's version, so changed bytes are charged anew and the same bytes never twice.
  const charge = () =>
    chargeOnce(env.DB, { accountId: identity.accountId, chargeKey: transformChargeKey(identity), operation: "image.transform", amountMicros: price });
  const r2Key = await storeDerivative(
    env,
    identity,
    { body: derivative.body, size: derivative.size, sha256: derivative.sha256, contentType: meta.contentType, etag: meta.etag, overlayFileId: overlay?.fileId ?? null },
    charge,
  );
  if (request.preset !== undefined) await recordPresetDerivative(env.DB, request.preset, { identity, cacheUrl: request.cacheKey.url });
  // The origin's stream went into R2: the cache reads it back from there.
  const forCache = derivative.body instanceof Uint8Array ? derivative.body : (await readObject(env.FILES, r2Key, identity.fileId)).body;
  const body = await cacheDerivative(env, request, source, meta, forCache, r2Key);
  // The response still goes out, as though this request had finished before the source went.
  await source.settle();
  // Likewise for an overlay deleted while this was computed: its deletion found no row to drop.
  if (overlay) await dropIfFileDeleted(env, identity.accountId, overlay.fileId);
  const response = derivativeResponse(body, meta, "compute", request.ifNoneMatch);
  response.headers.set("X-Transform-Engine", derivative.engine);
  response.headers.set("X-Transform-Source", derivative.source);
  return response;
}

/**
 * Puts a derivative in the edge cache and returns the response body. Bytes the edge made are in
 * memory and serve both; anything larger is never held in the isolate, whatever its size: R2
 * streams it to the cache, and again to the client (not at all for a 304). A stale copy is not
 * cached: the next request asks the origin again.
 */
async function cacheDerivative(
  env: Pick<Bindings, "FILES">,
  request: TransformRequest,
  source: TransformSource,
  meta: DerivativeMeta,
  body: Uint8Array | ReadableStream<Uint8Array>,
  r2Key: string,
): Promise<BodyInit | null> {
  if (source.stale) return body;
  // Awaited rather than left to waitUntil: a local put costs well under a millisecond, and the
  // next request for the same image (the browser's second <img>) then finds it.
  await putEdgeCache(request.cacheKey, body, meta, source.cacheUntil);
  if (body instanceof Uint8Array) return body;
  if (matchesIfNoneMatch(request.ifNoneMatch, meta.etag)) return null;
  return (await readObject(env.FILES, r2Key, source.identity.fileId)).body;
}
