// Every statement on an account shard's `idempotency_records` (workers/shards/shard-schema.ts).
// The shard is the account's own database, so a record is named by its key id and
// Idempotency-Key alone, and the shard runs one call at a time.
import { and, asc, eq, lte, or, sql } from "drizzle-orm";
import type { ShardDb } from "../shards/shard-db.ts";
import { shardIdempotencyRecords as records } from "../shards/shard-schema.ts";

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
// A synchronous request cannot run longer than this; a "running" record older than it was
// left by a crashed request and may be claimed again.
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

export interface RecordName {
  keyId: string;
  idempotencyKey: string;
}

export type IdempotencyRecord = typeof records.$inferSelect;

const named = (name: RecordName) => and(eq(records.keyId, name.keyId), eq(records.idempotencyKey, name.idempotencyKey));

/** Inserts a running record; false when a live record already holds the key. */
export function claimRecord(db: ShardDb, name: RecordName, fingerprint: string, now: number): boolean {
  // An existing record is taken over only when it expired or its request was abandoned.
  const row = db
    .insert(records)
    .values({ ...name, fingerprint, state: "running", createdAt: now, expiresAt: now + IDEMPOTENCY_RETENTION_MS })
    .onConflictDoUpdate({
      target: [records.keyId, records.idempotencyKey],
      set: {
        fingerprint: sql`excluded.fingerprint`,
        state: "running",
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: or(lte(records.expiresAt, now), and(eq(records.state, "running"), lte(records.createdAt, now - ABANDONED_AFTER_MS))),
    })
    .returning({ createdAt: records.createdAt })
    .get();
  return row !== undefined;
}

export function findRecord(db: ShardDb, name: RecordName): IdempotencyRecord | null {
  return db.select().from(records).where(named(name)).get() ?? null;
}

export function completeRecord(db: ShardDb, name: RecordName, response: { status: number; headers: Record<string, string>; body: string }): void {
  db.update(records).set({ state: "done", responseStatus: response.status, responseHeaders: response.headers, responseBody: response.body }).where(named(name)).run();
}

/** Forgets a claim whose request failed on our side, so the client's retry runs it again. */
export function releaseRecord(db: ShardDb, name: RecordName): void {
  db.delete(records).where(named(name)).run();
}

/** Drops records past their retention; returns how many. */
export function pruneRecords(db: ShardDb, now: number): number {
  return db.delete(records).where(lte(records.expiresAt, now)).returning({ keyId: records.keyId }).all().length;
}

/** When the next record expires, null when none is kept. */
export function nextExpiry(db: ShardDb): number | null {
  return db.select({ expiresAt: records.expiresAt }).from(records).orderBy(asc(records.expiresAt)).limit(1).get()?.expiresAt ?? null;
}

/** Records brought over from the shared database once; a record the shard already holds wins. */
export function importRecords(db: ShardDb, rows: IdempotencyRecord[]): void {
  for (const row of rows) db.insert(records).values(row).onConflictDoNothing().run();
}
