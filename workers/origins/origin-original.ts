// An origin path's original as the transform path needs it: the kept copy while it is fresh;
// otherwise the origin is asked again, conditionally when a copy is kept. A 304 keeps the version
// (and so every derivative); new bytes become a new version, written to R2 only once they are
// all here, capped and identified as an image, so a failed or hostile fetch never leaves half an
// original. A 404 or 410 is remembered for a minute. An origin that fails (5xx, reset, timeout)
// while a copy is kept gets the copy served stale; without one the answer is a 502 or 504.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { expectKind } from "../../contracts/sniff.ts";
import { deleteDerivativesUnder } from "../derivatives/derivative-store.ts";
import { deleteMezzaninesOf } from "../derivatives/mezzanine-store.ts";
import { fetchOriginal } from "./fetch-original.ts";
import { DEFAULT_FRESH_SECONDS, grantedSeconds, MISSING_SECONDS } from "./freshness.ts";
import { refreshObject, saveMissingObject, saveReadyObject, type OriginObject, type ReadyObject } from "./origin-object-store.ts";
import { originSourceId, versionOf } from "./origin-source-id.ts";
import type { OriginRecord } from "./origin-store.ts";
import { dropCachedPaths } from "./drop-cached.ts";

type OriginalEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "ALLOW_LOOPBACK_URLS" | "SIGNING_SECRET" | "PUBLIC_BASE_URL">;

// How long a client should wait before asking again after the origin failed.
const RETRY_AFTER_SECONDS = 30;

export interface CurrentOriginal {
  object: ReadyObject;
  /** The derivatives' source id for this version. */
  sourceId: string;
  /** Kept past its freshness because the origin failed just now. */
  stale: boolean;
}

// Misses in this isolate for one path (a page's srcset) share one fetch.
const inFlight = new Map<string, Promise<CurrentOriginal>>();

/** `known`: what the path held when last fetched, as the account's file shard has it. */
export async function currentOriginal(env: OriginalEnv, origin: OriginRecord, path: string, known: OriginObject | null, now = Date.now()): Promise<CurrentOriginal> {
  if (known && known.fresh_until > now) {
    if (known.status === "missing") throw missing(origin, path);
    return { object: known, sourceId: await originSourceId(origin.id, path, known.version), stale: false };
  }
  const flight = `${origin.id}\n${path}`;
  let pending = inFlight.get(flight);
  if (!pending) {
    pending = refetch(env, origin, path, known?.status === "ready" ? known : null).finally(() => inFlight.delete(flight));
    inFlight.set(flight, pending);
  }
  return pending;
}

function missing(origin: OriginRecord, path: string): ProblemError {
  return new ProblemError("not_found", `Origin ${origin.name} has nothing at ${path}.`);
}

function storageKey(origin: OriginRecord, path: string, version: string): string {
  return `accounts/${origin.account_id}/origins/${origin.id}/${encodeURIComponent(path)}/${version}`;
}

async function refetch(env: OriginalEnv, origin: OriginRecord, path: string, kept: ReadyObject | null): Promise<CurrentOriginal> {
  let answer;
  try {
    answer = await fetchOriginal(env, origin, path, kept ? { etag: kept.upstream_etag, lastModified: kept.upstream_last_modified } : null);
  } catch (error) {
    return afterFailure(env, origin, path, kept, error);
  }
  const now = Date.now();
  if ("notModified" in answer) {
    if (!kept) throw new ProblemError("upstream_unavailable", `Origin ${origin.name} answered 304 to an unconditional request for ${path}.`, retryAfter());
    const lifetime = grantedSeconds(answer.headers, now) ?? kept.lifetime_seconds;
    const freshUntil = now + lifetime * 1000;
    await refreshObject(env, origin, path, kept.version, lifetime, freshUntil, now);
    const object = { ...kept, lifetime_seconds: lifetime, fresh_until: freshUntil };
    return { object, sourceId: await originSourceId(origin.id, path, kept.version), stale: false };
  }
  const type = expectKind(answer.bytes, "image");
  const version = await versionOf(answer.bytes);
  const lifetime = grantedSeconds(answer.headers, now) ?? DEFAULT_FRESH_SECONDS;
  const object: ReadyObject = {
    status: "ready",
    version,
    r2_key: storageKey(origin, path, version),
    size_bytes: answer.bytes.byteLength,
    content_type: type.mime,
    upstream_etag: answer.headers.get("ETag"),
    upstream_last_modified: answer.headers.get("Last-Modified"),
    lifetime_seconds: lifetime,
    fresh_until: now + lifetime * 1000,
  };
  if (kept?.version !== version) await env.FILES.put(object.r2_key, answer.bytes, { httpMetadata: { contentType: type.mime } });
  const { status: _, ...row } = object;
  await saveReadyObject(env, origin, path, row, now);
  if (kept && kept.version !== version) {
    // The old version's derivatives are never served again: its original and they go now.
    const oldSource = await originSourceId(origin.id, path, kept.version);
    await env.FILES.delete(kept.r2_key);
    await deleteDerivativesUnder(env, origin.account_id, oldSource);
    await deleteMezzaninesOf(env.FILES, [oldSource]);
  }
  return { object, sourceId: await originSourceId(origin.id, path, version), stale: false };
}

function retryAfter() {
  return { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) }, extensions: { retry_after_seconds: RETRY_AFTER_SECONDS } };
}

async function afterFailure(env: OriginalEnv, origin: OriginRecord, path: string, kept: ReadyObject | null, error: unknown): Promise<CurrentOriginal> {
  if (!(error instanceof ProblemError)) throw error;
  const upstreamStatus = error.extensions.upstream_status;
  if (error.slug === "source_unreachable" && (upstreamStatus === 404 || upstreamStatus === 410)) {
    if (kept) await dropCachedPaths(env, origin, [{ path, r2_key: kept.r2_key, version: kept.version }]);
    await saveMissingObject(env, origin, path, Date.now() + MISSING_SECONDS * 1000);
    throw missing(origin, path);
  }
  if (error.slug === "source_too_large") {
    throw new ProblemError("image_too_large", `Origin ${origin.name}'s ${path}: ${error.message}.`, { extensions: error.extensions });
  }
  // An address the guard refused (a redirect inward) is the origin's configuration, not an outage.
  if (error.slug !== "source_unreachable") throw error;
  if (kept) return { object: kept, sourceId: await originSourceId(origin.id, path, kept.version), stale: true };
  const timedOut = error.extensions.reason === "timeout";
  throw new ProblemError(timedOut ? "upstream_timeout" : "upstream_unavailable", `Origin ${origin.name} failed for ${path}: ${error.message}.`, {
    ...retryAfter(),
    extensions: { ...retryAfter().extensions, ...(upstreamStatus === undefined ? {} : { upstream_status: upstreamStatus }) },
  });
}
