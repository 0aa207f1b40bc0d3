// What this service knows of each origin path's original, as the transform path and purges see
// it: kept by the account's file shard (./shard-origins.ts). Rows are written after the
// original's bytes are in R2, so a ready row never names a missing object.
import { fileShard, type FileShards } from "../shards/shard-stub.ts";
import { noOriginNamed, originRecordOf, type OriginRecord } from "./origin-store.ts";
import type { DroppedObject, PathSelection, ShardOriginObjectRow } from "./shard-origins.ts";

export interface ReadyObject {
  status: "ready";
  version: string;
  r2_key: string;
  size_bytes: number;
  content_type: string;
  upstream_etag: string | null;
  upstream_last_modified: string | null;
  lifetime_seconds: number;
  fresh_until: number;
}

export type OriginObject = ReadyObject | { status: "missing"; fresh_until: number; lifetime_seconds: number };

function objectOf(row: ShardOriginObjectRow): OriginObject {
  if (row.status !== "ready") return { status: "missing", fresh_until: row.freshUntil, lifetime_seconds: row.lifetimeSeconds };
  return {
    status: "ready",
    version: row.version!,
    r2_key: row.r2Key!,
    size_bytes: row.sizeBytes!,
    content_type: row.contentType!,
    upstream_etag: row.upstreamEtag,
    upstream_last_modified: row.upstreamLastModified,
    lifetime_seconds: row.lifetimeSeconds,
    fresh_until: row.freshUntil,
  };
}

/** The account's origin by name and what its path held when last fetched (null: never, or purged), in one call to the shard. */
export async function findOriginPath(env: FileShards, accountId: string, name: string, path: string): Promise<{ origin: OriginRecord; known: OriginObject | null }> {
  const found = await fileShard(env, accountId).originPath(accountId, name, path);
  if (!found) throw noOriginNamed(name);
  return { origin: originRecordOf(accountId, found.origin), known: found.object && objectOf(found.object) };
}

export async function saveReadyObject(env: FileShards, origin: OriginRecord, path: string, object: Omit<ReadyObject, "status">, now = Date.now()): Promise<void> {
  await fileShard(env, origin.account_id).saveOriginObject(origin.account_id, {
    originId: origin.id,
    path,
    status: "ready",
    version: object.version,
    r2Key: object.r2_key,
    sizeBytes: object.size_bytes,
    contentType: object.content_type,
    upstreamEtag: object.upstream_etag,
    upstreamLastModified: object.upstream_last_modified,
    lifetimeSeconds: object.lifetime_seconds,
    freshUntil: object.fresh_until,
    fetchedAt: now,
  });
}

/** The origin answered 404 or 410: remembered (bytes gone) until `freshUntil`. */
export async function saveMissingObject(env: FileShards, origin: OriginRecord, path: string, freshUntil: number, now = Date.now()): Promise<void> {
  await fileShard(env, origin.account_id).saveOriginObject(origin.account_id, {
    originId: origin.id,
    path,
    status: "missing",
    version: null,
    r2Key: null,
    sizeBytes: null,
    contentType: null,
    upstreamEtag: null,
    upstreamLastModified: null,
    lifetimeSeconds: Math.round((freshUntil - now) / 1000),
    freshUntil,
    fetchedAt: now,
  });
}

/** A 304: the same version, fresh again. Only while the row still holds that version. */
export async function refreshObject(env: FileShards, origin: OriginRecord, path: string, version: string, lifetimeSeconds: number, freshUntil: number, now = Date.now()): Promise<void> {
  await fileShard(env, origin.account_id).refreshOriginObject(origin.account_id, origin.id, path, version, lifetimeSeconds, freshUntil, now);
}

/** The path's current version; null when it has none (missing, purged, never fetched). */
export async function currentVersion(env: FileShards, origin: OriginRecord, path: string): Promise<string | null> {
  return fileShard(env, origin.account_id).originVersion(origin.account_id, origin.id, path);
}

/** Marks the selected paths dropped; returns what they held, for their objects and derivatives to go. */
export async function dropOriginObjects(env: FileShards, origin: OriginRecord, which: PathSelection = {}, now = Date.now()): Promise<DroppedObject[]> {
  return fileShard(env, origin.account_id).dropOriginObjects(origin.account_id, origin.id, which, now);
}

/** Makes the selected paths stale, keeping their originals: the next miss asks the origin, conditionally. Returns the paths that keep an original. */
export async function markObjectsStale(env: FileShards, origin: OriginRecord, which: PathSelection): Promise<string[]> {
  return fileShard(env, origin.account_id).markOriginObjectsStale(origin.account_id, origin.id, which);
}

/** The origin's name and every path it has a row for; null when the origin is gone. */
export async function originPathsById(env: FileShards, accountId: string, originId: string): Promise<{ name: string; paths: string[] } | null> {
  return fileShard(env, accountId).originPaths(accountId, originId);
}
