// Every statement on the shared database's `derivatives`: the report of every account's
// derivatives, which the account shards keep (./shard-derivatives.ts) and feed here with their
// ledger rows (workers/billing/ledger-feed.ts). A shard reads its account's rows from it once, when
// it is first used; the books (scripts/soak/reconcile.ts) read it. Each row carries the shard's
// change it reflects, so a copy of an older change delivered late changes nothing, and a dropped
// derivative stays a day as a marker before the cron sweep forgets it.
import { and, eq, getTableColumns, isNull, lte, sql } from "drizzle-orm";
import { rowsInPages } from "../db/import-pages.ts";
import { orm } from "../db/orm.ts";
import { derivatives } from "../db/schema.ts";
import type { ShardDerivativeRow } from "./shard-derivatives.ts";
import { inChunks } from "../db/in-chunks.ts";

/** How long a dropped derivative's marker outlives any copy of an older change still in the queue. */
export const DROPPED_MARKER_MS = 24 * 60 * 60 * 1000;

// The report's columns a shard keeps too: all but the account and the feed's own.
const { accountId: _accountId, fedSeq: _fedSeq, droppedAt: _droppedAt, ...shardColumns } = getTableColumns(derivatives);

/** The account's derivatives recorded before it had a shard, read page by page. */
export function derivativesBeforeShard(db: D1Database, accountId: string): Promise<ShardDerivativeRow[]> {
  return rowsInPages(db, derivatives, shardColumns, and(eq(derivatives.accountId, accountId), isNull(derivatives.droppedAt)));
}

/** A derivative's state as a feed message carries it: its row, or null once dropped, under the shard's change `seq`. */
export interface FedDerivative {
  account_id: string;
  file_id: string;
  canonical: string;
  format_class: string;
  seq: number;
  row: { r2_key: string; etag: string; bytes: number; content_type: string; created_at: number; overlay_file_id: string | null } | null;
}

// One statement for a whole batch: each derivative's state goes in as JSON, and replaces the
// report's row only when it reflects a newer change. A drop becomes a marker (dropped_at), so a
// late copy of the keep before it finds a newer row and changes nothing.
const UPSERT_FED_DERIVATIVES = `INSERT INTO derivatives (account_id, file_id, canonical, format_class, r2_key, etag, bytes, content_type, created_at, overlay_file_id, fed_seq, dropped_at)
  SELECT value ->> 'account_id', value ->> 'file_id', value ->> 'canonical', value ->> 'format_class',
    COALESCE(value ->> '$.row.r2_key', ''), COALESCE(value ->> '$.row.etag', ''), COALESCE(value ->> '$.row.bytes', 0),
    COALESCE(value ->> '$.row.content_type', ''), COALESCE(value ->> '$.row.created_at', ?2), value ->> '$.row.overlay_file_id',
    value ->> 'seq', CASE WHEN value -> 'row' = 'null' THEN ?2 END
  FROM json_each(?1) WHERE true
  ON CONFLICT (account_id, file_id, canonical, format_class) DO UPDATE SET
    r2_key = CASE WHEN excluded.dropped_at IS NULL THEN excluded.r2_key ELSE derivatives.r2_key END,
    etag = CASE WHEN excluded.dropped_at IS NULL THEN excluded.etag ELSE derivatives.etag END,
    bytes = CASE WHEN excluded.dropped_at IS NULL THEN excluded.bytes ELSE derivatives.bytes END,
    content_type = CASE WHEN excluded.dropped_at IS NULL THEN excluded.content_type ELSE derivatives.content_type END,
    created_at = CASE WHEN excluded.dropped_at IS NULL THEN excluded.created_at ELSE derivatives.created_at END,
    overlay_file_id = CASE WHEN excluded.dropped_at IS NULL THEN excluded.overlay_file_id ELSE derivatives.overlay_file_id END,
    fed_seq = excluded.fed_seq, dropped_at = excluded.dropped_at
  WHERE excluded.fed_seq > derivatives.fed_seq`;

// About 300 bytes a derivative, well under D1's 2 MB for a bound value.
const DERIVATIVES_PER_STATEMENT = 3_000;

/** The statements that bring the report up to the fed states, for the feed's one batch (one transaction). */
export function fedDerivativeStatements(db: D1Database, fed: FedDerivative[], now: number): D1PreparedStatement[] {
  return inChunks(fed, DERIVATIVES_PER_STATEMENT).map((chunk) => db.prepare(UPSERT_FED_DERIVATIVES).bind(JSON.stringify(chunk), now));
}

/** Forgets the markers of derivatives dropped more than a day ago; returns how many. */
export async function forgetDroppedDerivatives(db: D1Database, now: number): Promise<number> {
  const result = await orm(db).delete(derivatives).where(lte(derivatives.droppedAt, now - DROPPED_MARKER_MS)).run();
  return result.meta.changes;
}

/** Every live derivative, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function derivativeRows(db: D1Database) {
  return orm(db)
    .select({
      account_id: derivatives.accountId,
      file_id: derivatives.fileId,
      canonical: derivatives.canonical,
      format_class: derivatives.formatClass,
      r2_key: derivatives.r2Key,
      etag: derivatives.etag,
    })
    .from(derivatives)
    .where(isNull(derivatives.droppedAt));
}

/** The live derivative whose object is `r2Key`, if any: a query, so the books can batch it with the file lookup. */
export function derivativeAt(db: D1Database, r2Key: string) {
  return orm(db)
    .select({ file_id: derivatives.fileId })
    .from(derivatives)
    .where(and(eq(derivatives.r2Key, r2Key), isNull(derivatives.droppedAt)))
    .limit(1);
}

/** The report's derivative progress: the sum of its rows' change numbers, which moves with every fed change. */
export function fedDerivativeProgress(db: D1Database) {
  return orm(db).select({ n: sql<number>`COALESCE(SUM(${derivatives.fedSeq}), 0)` }).from(derivatives);
}
