// Answer: the reply to a planned transform, from R2's copy or from what was just computed. A
// computed derivative is stored (and charged, once ever, by the store: see storeDerivative), put
// in the edge cache, and its source (and overlay) checked once more for a deletion that ran
// meanwhile.
import type { Charge } from "../billing/charge.ts";
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { dropIfFileDeleted } from "../files/file-lifecycle.ts";
import { sawFile } from "../files/recent-files.ts";
import { readObject } from "../objects/file-objects.ts";
import { recordPresetDerivative } from "../presets/preset-derivative-store.ts";
import { derivativeContentTypes } from "../../contracts/transform/output-format.ts";
import { derivativeResponse, matchesIfNoneMatch, type DerivativeMeta } from "../derivatives/derivative-response.ts";
import { storeDerivative, type StoredDerivative } from "../derivatives/derivative-store.ts";
import { putEdgeCache } from "../derivatives/edge-cache.ts";
import type { ComputedDerivative } from "./run-tier.ts";
import type { PlanEnv, TransformPlan } from "./transform-plan.ts";

export async function answerStored(env: Pick<Bindings, "FILES">, plan: TransformPlan, stored: StoredDerivative): Promise<Response> {
  const { record, object } = stored;
  const meta = plan.meta(record.etag, record.content_type, object.size);
  const body = await cacheDerivative(env, plan, meta, object.body, record.r2_key);
  return derivativeResponse(body, meta, "r2", plan.request.ifNoneMatch);
}

/** `charge` bills the derivative; the store makes it once the bytes are safely kept, unless the source already has a derivative of the same bytes. */
export async function answerComputed(env: PlanEnv, plan: TransformPlan, derivative: ComputedDerivative, charge: Charge): Promise<Response> {
  const { identity, overlay, request } = plan;
  const meta = plan.meta(plan.source.etag(derivative.sha256), derivativeContentTypes[derivative.format], derivative.size);
  const kept = { body: derivative.body, size: derivative.size, sha256: derivative.sha256, contentType: meta.contentType, etag: meta.etag, overlayFileId: overlay?.fileId ?? null };
  const r2Key = await storeDerivative(env, identity, kept, charge).catch((error: unknown) => {
    // Refused as made of a source deleted meanwhile: this isolate's memory of the file is stale.
    if (error instanceof ProblemError && error.slug === "gone") sawFile(identity.accountId, identity.fileId, null);
    throw error;
  });
  if (request.preset !== undefined) await recordPresetDerivative(env.DB, request.preset, { identity, cacheUrl: request.cacheKey.url });
  // The origin's stream went into R2: the cache reads it back from there.
  const forCache = derivative.body instanceof Uint8Array ? derivative.body : (await readObject(env.FILES, r2Key, identity.fileId)).body;
  const body = await cacheDerivative(env, plan, meta, forCache, r2Key);
  // The response still goes out, as though this request had finished before the source went.
  await plan.source.settle();
  // Likewise for an overlay deleted while this was stored.
  if (overlay) await dropIfFileDeleted(env, identity.accountId, overlay.fileId, request.cacheKey);
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
  plan: TransformPlan,
  meta: DerivativeMeta,
  body: Uint8Array | ReadableStream<Uint8Array>,
  r2Key: string,
): Promise<BodyInit | null> {
  const { source, request } = plan;
  if (source.stale) return body;
  // Awaited rather than left to waitUntil: a local put costs well under a millisecond, and the
  // next request for the same image (the browser's second <img>) then finds it.
  await putEdgeCache(request.cacheKey, body, meta, source.cacheUntil);
  if (body instanceof Uint8Array) return body;
  if (matchesIfNoneMatch(request.ifNoneMatch, meta.etag)) return null;
  return (await readObject(env.FILES, r2Key, source.identity.fileId)).body;
}
