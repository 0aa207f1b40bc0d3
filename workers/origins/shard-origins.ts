// Every statement on a file shard's `origins`, `origin_objects` and `origin_object_changes`
// (workers/shards/shard-schema.ts). The shard is the account's own, so an origin is named by its
// name or id alone, and it runs one call at a time. Each write to a path also records it as
// changed, for the shared report (./d1-origins.ts) the ledger feed brings up to date. A path's
// row is never removed: a purge marks it dropped, so the report only ever moves forward.
import { and, asc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardOriginObjectChanges as changes, shardOriginObjects as objects, shardOrigins as origins } from "../shards/shard-schema.ts";

export type ShardOriginRow = typeof origins.$inferSelect;
export type ShardOriginObjectRow = typeof objects.$inferSelect;

/** Some paths of an origin, every path under a prefix, or (neither) all of them. */
export interface PathSelection {
  paths?: string[];
  prefix?: string;
}

/** What a dropped path held: its original's object and version, to delete them and their derivatives. */
export interface DroppedObject {
  path: string;
  r2_key: string | null;
  version: string | null;
}

/** An origin path changed since the report last heard, as it is now. */
export interface OriginObjectChange {
  seq: number;
  row: ShardOriginObjectRow;
}

/** False when the account already has an origin of that name. */
export function insertShardOrigin(db: ShardDb, row: ShardOriginRow): boolean {
  return db.insert(origins).values(row).onConflictDoNothing().returning({ id: origins.id }).get() !== undefined;
}

export function listShardOrigins(db: ShardDb): ShardOriginRow[] {
  return db.select().from(origins).orderBy(asc(origins.name)).all();
}

export function findShardOrigin(db: ShardDb, name: string): ShardOriginRow | null {
  return db.select().from(origins).where(eq(origins.name, name)).get() ?? null;
}

export function findShardOriginById(db: ShardDb, originId: string): ShardOriginRow | null {
  return db.select().from(origins).where(eq(origins.id, originId)).get() ?? null;
}

export function deleteShardOrigin(db: ShardDb, name: string): ShardOriginRow | null {
  return db.delete(origins).where(eq(origins.name, name)).returning().get() ?? null;
}

function at(originId: string, path: string) {
  return and(eq(objects.originId, originId), eq(objects.path, path));
}

// Paths are percent-encoded ASCII, so every path under a prefix sorts between it and the prefix
// followed by U+FFFF; a range is exact where LIKE would read `%` and `_` in paths as wildcards.
const AFTER_EVERY_ASCII = "\uffff";

function selected(originId: string, which: PathSelection) {
  const live = and(eq(objects.originId, originId), ne(objects.status, "dropped"));
  if (which.paths) return and(live, inArray(objects.path, which.paths));
  if (which.prefix !== undefined) return and(live, gte(objects.path, which.prefix), lt(objects.path, which.prefix + AFTER_EVERY_ASCII));
  return live;
}

function touch(db: ShardDb, originId: string, paths: string[]): void {
  // A new row for each, so a change made while an earlier one is being sent is sent again.
  for (const path of paths) {
    db.delete(changes).where(and(eq(changes.originId, originId), eq(changes.path, path))).run();
    db.insert(changes).values({ originId, path }).run();
  }
}

/** The path's row, unless it was dropped. */
export function findShardOriginObject(db: ShardDb, originId: string, path: string): ShardOriginObjectRow | null {
  const row = db.select().from(objects).where(at(originId, path)).get();
  return row && row.status !== "dropped" ? row : null;
}

/** Records what the origin answered for a path: its original (ready) or its absence (missing). */
export function saveShardOriginObject(db: ShardDb, row: ShardOriginObjectRow): void {
  const { originId: _originId, path: _path, ...values } = row;
  db.insert(objects).values(row).onConflictDoUpdate({ target: [objects.originId, objects.path], set: values }).run();
  touch(db, row.originId, [row.path]);
}

/** A 304: the same version, fresh again. Only while the row still holds that version. */
export function refreshShardOriginObject(db: ShardDb, originId: string, path: string, version: string, lifetimeSeconds: number, freshUntil: number, now: number): void {
  const refreshed = db
    .update(objects)
    .set({ lifetimeSeconds, freshUntil, fetchedAt: now })
    .where(and(at(originId, path), eq(objects.version, version)))
    .returning({ path: objects.path })
    .all();
  touch(db, originId, refreshed.map((row) => row.path));
}

/** Every path of the origin that is not dropped. */
export function shardOriginPaths(db: ShardDb, originId: string): string[] {
  return db.select({ path: objects.path }).from(objects).where(selected(originId, {})).all().map((row) => row.path);
}

/** Marks the selected paths dropped; returns what they held. */
export function dropShardOriginObjects(db: ShardDb, originId: string, which: PathSelection, now: number): DroppedObject[] {
  const dropped = db
    .select({ path: objects.path, r2_key: objects.r2Key, version: objects.version })
    .from(objects)
    .where(selected(originId, which))
    .all();
  if (dropped.length === 0) return [];
  for (const { path } of dropped) {
    db.update(objects)
      .set({ status: "dropped", version: null, r2Key: null, sizeBytes: null, contentType: null, upstreamEtag: null, upstreamLastModified: null, freshUntil: 0, fetchedAt: now })
      .where(at(originId, path))
      .run();
  }
  touch(db, originId, dropped.map((row) => row.path));
  return dropped;
}

/**
 * Makes the selected paths stale, keeping their originals: the next miss asks the origin,
 * conditionally (and a remembered 404 is asked about again). Returns the paths that keep an original.
 */
export function markShardOriginObjectsStale(db: ShardDb, originId: string, which: PathSelection): string[] {
  const stale = db.update(objects).set({ freshUntil: 0 }).where(selected(originId, which)).returning({ path: objects.path, status: objects.status }).all();
  touch(db, originId, stale.map((row) => row.path));
  return stale.flatMap((row) => (row.status === "ready" ? [row.path] : []));
}

/** The account's origins and paths from before it had a file shard; the report has them already. */
export function importShardOrigins(db: ShardDb, originRows: ShardOriginRow[], objectRows: ShardOriginObjectRow[]): void {
  for (const row of originRows) db.insert(origins).values(row).onConflictDoNothing().run();
  for (const row of objectRows) db.insert(objects).values(row).onConflictDoNothing().run();
}

/** Up to `limit` paths changed since the report last heard, oldest change first, each as it is now. */
export function unfedOriginObjectChanges(db: ShardDb, limit: number): OriginObjectChange[] {
  const touched = db.select().from(changes).orderBy(asc(changes.seq)).limit(limit).all();
  return touched.flatMap((change) => {
    const row = db.select().from(objects).where(at(change.originId, change.path)).get();
    return row ? [{ seq: change.seq, row }] : [];
  });
}

/** Forgets the changes the report now has; a path changed again since keeps its newer entry. */
export function markOriginObjectsFed(db: ShardDb, throughSeq: number): void {
  db.delete(changes).where(sql`${changes.seq} <= ${throughSeq}`).run();
}
