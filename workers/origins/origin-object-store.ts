// What this service knows of each origin path's original: the only place the `origin_objects`
// table's SQL lives. Rows are written after the original's bytes are in R2, so a ready row never
// names a missing object.
import { and, eq, gte, inArray, lt } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { originObjects } from "../db/schema.ts";

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

export interface ObjectAddress {
  originId: string;
  accountId: string;
  path: string;
}

const columns = {
  status: originObjects.status,
  version: originObjects.version,
  r2_key: originObjects.r2Key,
  size_bytes: originObjects.sizeBytes,
  content_type: originObjects.contentType,
  upstream_etag: originObjects.upstreamEtag,
  upstream_last_modified: originObjects.upstreamLastModified,
  lifetime_seconds: originObjects.lifetimeSeconds,
  fresh_until: originObjects.freshUntil,
};

function at(originId: string, path: string) {
  return and(eq(originObjects.originId, originId), eq(originObjects.path, path));
}

export async function findOriginObject(db: D1Database, originId: string, path: string): Promise<OriginObject | null> {
  const row = await orm(db).select(columns).from(originObjects).where(at(originId, path)).get();
  if (!row) return null;
  if (row.status === "missing") return { status: "missing", fresh_until: row.fresh_until, lifetime_seconds: row.lifetime_seconds };
  return row as ReadyObject;
}

export async function saveReadyObject(db: D1Database, address: ObjectAddress, object: Omit<ReadyObject, "status">, now = Date.now()): Promise<void> {
  const values = {
    status: "ready" as const,
    version: object.version,
    r2Key: object.r2_key,
    sizeBytes: object.size_bytes,
    contentType: object.content_type,
    upstreamEtag: object.upstream_etag,
    upstreamLastModified: object.upstream_last_modified,
    lifetimeSeconds: object.lifetime_seconds,
    freshUntil: object.fresh_until,
    fetchedAt: now,
  };
  await orm(db)
    .insert(originObjects)
    .values({ ...address, ...values })
    .onConflictDoUpdate({ target: [originObjects.originId, originObjects.path], set: values })
    .run();
}

/** The origin answered 404 or 410: remembered (bytes gone) until `freshUntil`. */
export async function saveMissingObject(db: D1Database, address: ObjectAddress, freshUntil: number, now = Date.now()): Promise<void> {
  const values = {
    status: "missing" as const,
    version: null,
    r2Key: null,
    sizeBytes: null,
    contentType: null,
    upstreamEtag: null,
    upstreamLastModified: null,
    lifetimeSeconds: Math.round((freshUntil - now) / 1000),
    freshUntil,
    fetchedAt: now,
  };
  await orm(db)
    .insert(originObjects)
    .values({ ...address, ...values })
    .onConflictDoUpdate({ target: [originObjects.originId, originObjects.path], set: values })
    .run();
}

/** A 304: the same version, fresh again. Only while the row still holds that version. */
export async function refreshObject(db: D1Database, originId: string, path: string, version: string, lifetimeSeconds: number, freshUntil: number, now = Date.now()): Promise<void> {
  await orm(db)
    .update(originObjects)
    .set({ lifetimeSeconds, freshUntil, fetchedAt: now })
    .where(and(at(originId, path), eq(originObjects.version, version)))
    .run();
}

export async function currentVersion(db: D1Database, originId: string, path: string): Promise<string | null> {
  const row = await orm(db).select({ version: originObjects.version }).from(originObjects).where(at(originId, path)).get();
  return row?.version ?? null;
}

/** Every path the origin has a row for. */
export async function originPaths(db: D1Database, originId: string): Promise<string[]> {
  const rows = await orm(db).select({ path: originObjects.path }).from(originObjects).where(eq(originObjects.originId, originId)).all();
  return rows.map((row) => row.path);
}

export interface DroppedObject {
  path: string;
  r2_key: string | null;
  version: string | null;
}

// Paths are percent-encoded ASCII, so every path under a prefix sorts between it and the prefix
// followed by U+FFFF; a range is exact where LIKE would read `%` and `_` in paths as wildcards.
const AFTER_EVERY_ASCII = "\uffff";

/** Some paths of an origin, every path under a prefix, or (neither) all of them. */
export interface PathSelection {
  paths?: string[];
  prefix?: string;
}

function selected(originId: string, which: PathSelection) {
  return which.paths
    ? and(eq(originObjects.originId, originId), inArray(originObjects.path, which.paths))
    : which.prefix !== undefined
      ? and(eq(originObjects.originId, originId), gte(originObjects.path, which.prefix), lt(originObjects.path, which.prefix + AFTER_EVERY_ASCII))
      : eq(originObjects.originId, originId);
}

/** Deletes the selected paths' rows; returns what they held. */
export async function deleteOriginObjects(db: D1Database, originId: string, which: PathSelection = {}): Promise<DroppedObject[]> {
  return orm(db).delete(originObjects).where(selected(originId, which)).returning({ path: originObjects.path, r2_key: originObjects.r2Key, version: originObjects.version }).all();
}

/** Makes the selected paths stale, keeping their originals: the next miss asks the origin, conditionally. Returns the paths. */
export async function markObjectsStale(db: D1Database, originId: string, which: PathSelection): Promise<string[]> {
  const rows = await orm(db).update(originObjects).set({ freshUntil: 0 }).where(selected(originId, which)).returning({ path: originObjects.path }).all();
  return rows.map((row) => row.path);
}

/** Every origin path's row, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it joins the one batch the books are read in. */
export function originObjectRows(db: D1Database) {
  return orm(db)
    .select({ origin_id: originObjects.originId, account_id: originObjects.accountId, path: originObjects.path, status: originObjects.status, version: originObjects.version, r2_key: originObjects.r2Key })
    .from(originObjects);
}

/** The origin path whose original is `r2Key`, if any: a query, so the books can batch it. */
export function originObjectAt(db: D1Database, r2Key: string) {
  return orm(db).select({ origin_id: originObjects.originId }).from(originObjects).where(eq(originObjects.r2Key, r2Key)).limit(1);
}
