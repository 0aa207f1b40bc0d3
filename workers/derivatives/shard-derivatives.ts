// Every statement on an account shard's `derivatives` and `derivative_changes`
// (workers/shards/shard-schema.ts). The shard is the account's own database, so a derivative is
// named by its source, canonical transform and format class alone, and the shard runs one call at
// a time. Each write also records the derivative as changed, for the shared report
// (./d1-derivatives.ts), which the ledger feed brings up to date.
import { and, asc, count, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardDerivativeChanges as changes, shardDerivatives as derivatives, shardGoneSources as goneSources } from "../shards/shard-schema.ts";
import { inChunks } from "../db/in-chunks.ts";

/** A derivative's row as the shard keeps it. */
export type ShardDerivativeRow = typeof derivatives.$inferSelect;

/** What names a derivative within its account. */
export type ShardDerivativeName = Pick<ShardDerivativeRow, "fileId" | "canonical" | "formatClass">;

/** A derivative changed since the report last heard: its row as it is now, or null once dropped. */
export interface DerivativeChange extends ShardDerivativeName {
  seq: number;
  row: ShardDerivativeRow | null;
}

const named = (name: ShardDerivativeName) => and(eq(derivatives.fileId, name.fileId), eq(derivatives.canonical, name.canonical), eq(derivatives.formatClass, name.formatClass));

export function findShardDerivative(db: ShardDb, name: ShardDerivativeName): ShardDerivativeRow | null {
  return db.select().from(derivatives).where(named(name)).get() ?? null;
}

export function countShardDerivatives(db: ShardDb, fileId: string): number {
  return db.select({ n: count() }).from(derivatives).where(eq(derivatives.fileId, fileId)).get()?.n ?? 0;
}

/** Whether the source already has a derivative of these bytes (its ETag is their digest). */
export function hasSameBytes(db: ShardDb, fileId: string, etag: string): boolean {
  return db.select({ canonical: derivatives.canonical }).from(derivatives).where(and(eq(derivatives.fileId, fileId), eq(derivatives.etag, etag))).limit(1).get() !== undefined;
}

function touch(db: ShardDb, names: ShardDerivativeName[]): void {
  // A new row for each, so a change made while an earlier one is being sent is sent again.
  for (const name of names) {
    db.delete(changes).where(and(eq(changes.fileId, name.fileId), eq(changes.canonical, name.canonical), eq(changes.formatClass, name.formatClass))).run();
    db.insert(changes).values(name).run();
  }
}

/** Keeps the derivative's row, replacing one of the same name (its object was made again). */
export function keepShardDerivative(db: ShardDb, row: ShardDerivativeRow): void {
  db.insert(derivatives)
    .values(row)
    .onConflictDoUpdate({
      target: [derivatives.fileId, derivatives.canonical, derivatives.formatClass],
      set: { r2Key: sql`excluded.r2_key`, etag: sql`excluded.etag`, bytes: sql`excluded.bytes`, contentType: sql`excluded.content_type` },
    })
    .run();
  touch(db, [row]);
}

function dropWhere(db: ShardDb, where: ReturnType<typeof and>): ShardDerivativeRow[] {
  const dropped = db.delete(derivatives).where(where).returning().all();
  touch(db, dropped);
  return dropped;
}

// A shard binds at most 100 parameters a statement; each source id is bound twice (source and overlay).
const SOURCES_PER_STATEMENT = 49;

/** What `read` finds for the derivatives made of the sources or drawn with one as their overlay, a statement's worth of sources at a time. */
function madeWith(fileIds: string[], read: (where: ReturnType<typeof or>) => ShardDerivativeRow[]): ShardDerivativeRow[] {
  return inChunks(fileIds, SOURCES_PER_STATEMENT).flatMap((chunk) => read(or(inArray(derivatives.fileId, chunk), inArray(derivatives.overlayFileId, chunk))));
}

/** Drops the derivatives of the sources, and those drawn with one of them as their overlay. */
export function dropDerivativesMadeWith(db: ShardDb, fileIds: string[]): ShardDerivativeRow[] {
  return madeWith(fileIds, (where) => dropWhere(db, where));
}

/** Drops the named derivatives; a name with no row is skipped. */
export function dropNamedDerivatives(db: ShardDb, names: ShardDerivativeName[]): ShardDerivativeRow[] {
  return names.flatMap((name) => dropWhere(db, named(name)));
}

function under(sourcePrefix: string) {
  return and(gte(derivatives.fileId, sourcePrefix), lt(derivatives.fileId, `${sourcePrefix}\uffff`));
}

/** Drops the derivatives of every source whose id starts with `sourcePrefix` (an origin path's versions). */
export function dropDerivativesUnder(db: ShardDb, sourcePrefix: string): ShardDerivativeRow[] {
  return dropWhere(db, under(sourcePrefix));
}

/** The derivatives of every source whose id starts with `sourcePrefix`. */
export function derivativesUnder(db: ShardDb, sourcePrefix: string): ShardDerivativeRow[] {
  return db.select().from(derivatives).where(under(sourcePrefix)).all();
}

/** The derivatives of the sources, and those drawn with one of them as their overlay. */
export function derivativesMadeWith(db: ShardDb, fileIds: string[]): ShardDerivativeRow[] {
  return madeWith(fileIds, (where) => db.select().from(derivatives).where(where).all());
}

/** How long a deleted source's derivatives are refused: far past any transform's deadline. */
const GONE_SOURCE_MS = 24 * 60 * 60 * 1000;

/** Records the sources as deleted (forgetting those deleted more than GONE_SOURCE_MS ago). */
export function recordGoneSources(db: ShardDb, fileIds: string[], now: number): void {
  db.delete(goneSources).where(lt(goneSources.goneAt, now - GONE_SOURCE_MS)).run();
  for (const fileId of fileIds) db.insert(goneSources).values({ fileId, goneAt: now }).onConflictDoNothing().run();
}

/** Whether the derivative is made of (or drawn with) a source deleted lately. */
export function madeOfGoneSource(db: ShardDb, row: Pick<ShardDerivativeRow, "fileId" | "overlayFileId">): boolean {
  const ids = row.overlayFileId === null ? [row.fileId] : [row.fileId, row.overlayFileId];
  return db.select({ fileId: goneSources.fileId }).from(goneSources).where(inArray(goneSources.fileId, ids)).limit(1).get() !== undefined;
}

/** Rows the shared database held before the account had a shard: the report has them already. */
export function importShardDerivatives(db: ShardDb, rows: ShardDerivativeRow[]): void {
  for (const row of rows) db.insert(derivatives).values(row).onConflictDoNothing().run();
}

/** Up to `limit` derivatives changed since the report last heard, oldest change first, each as it is now. */
export function unfedDerivativeChanges(db: ShardDb, limit: number): DerivativeChange[] {
  const touched = db.select().from(changes).orderBy(asc(changes.seq)).limit(limit).all();
  return touched.map((change) => ({ ...change, row: findShardDerivative(db, change) }));
}

/** Forgets the changes the report now has; a derivative changed again since keeps its newer entry. */
export function markDerivativesFed(db: ShardDb, throughSeq: number): void {
  db.delete(changes).where(sql`${changes.seq} <= ${throughSeq}`).run();
}
