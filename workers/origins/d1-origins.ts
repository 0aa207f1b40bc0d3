// Every statement on the shared database's `origins` and `origin_objects`. Each account's file
// shard keeps its origins and their paths (./shard-origins.ts) and reads its account's rows from
// here once, when it is first used; `origin_objects` is then the report the shards feed
// (workers/billing/ledger-feed.ts), which the books (scripts/soak/reconcile.ts) read. Each row
// carries the shard's change it reflects, so a copy of an older change delivered late changes
// nothing.
import { eq, getTableColumns, sql } from "drizzle-orm";
import { rowsInPages } from "../db/import-pages.ts";
import { orm } from "../db/orm.ts";
import { originObjects, origins } from "../db/schema.ts";
import type { ShardOriginObjectRow, ShardOriginRow } from "./shard-origins.ts";
import { inChunks } from "../db/in-chunks.ts";

const { accountId: _originAccount, ...originShardColumns } = getTableColumns(origins);
const { accountId: _objectAccount, fedSeq: _fedSeq, ...objectShardColumns } = getTableColumns(originObjects);

/** The account's origins registered before it had a file shard. */
export function originsBeforeShard(db: D1Database, accountId: string): Promise<ShardOriginRow[]> {
  return orm(db).select(originShardColumns).from(origins).where(eq(origins.accountId, accountId)).all();
}

/** The account's origin paths recorded before it had a file shard, read page by page. */
export function originObjectsBeforeShard(db: D1Database, accountId: string): Promise<ShardOriginObjectRow[]> {
  return rowsInPages(db, originObjects, objectShardColumns, eq(originObjects.accountId, accountId));
}

/** A path's state as a feed message carries it, under the shard's change `seq`. */
export interface FedOriginObject {
  account_id: string;
  seq: number;
  row: {
    origin_id: string;
    path: string;
    status: ShardOriginObjectRow["status"];
    version: string | null;
    r2_key: string | null;
    size_bytes: number | null;
    content_type: string | null;
    upstream_etag: string | null;
    upstream_last_modified: string | null;
    lifetime_seconds: number;
    fresh_until: number;
    fetched_at: number;
  };
}

const OBJECT_FIELDS = ["status", "version", "r2_key", "size_bytes", "content_type", "upstream_etag", "upstream_last_modified", "lifetime_seconds", "fresh_until", "fetched_at"] as const;

// One statement for many paths: each path's state goes in as JSON, and replaces the report's row
// only when it reflects a newer change.
const UPSERT_FED_OBJECTS = `INSERT INTO origin_objects (origin_id, path, account_id, ${OBJECT_FIELDS.join(", ")}, fed_seq)
  SELECT value ->> '$.row.origin_id', value ->> '$.row.path', value ->> 'account_id', ${OBJECT_FIELDS.map((field) => `value ->> '$.row.${field}'`).join(", ")}, value ->> 'seq'
  FROM json_each(?1) WHERE true
  ON CONFLICT (origin_id, path) DO UPDATE SET ${OBJECT_FIELDS.map((field) => `${field} = excluded.${field}`).join(", ")}, fed_seq = excluded.fed_seq
  WHERE excluded.fed_seq > origin_objects.fed_seq AND excluded.account_id = origin_objects.account_id`;

// At most about 4.5 KB a path (a 1,024-character path, and its R2 key that escapes it again),
// well under D1's 2 MB for a bound value.
const OBJECTS_PER_STATEMENT = 300;

/** The statements that bring the report up to the fed states, for the feed's one batch (one transaction). */
export function fedOriginObjectStatements(db: D1Database, fed: FedOriginObject[]): D1PreparedStatement[] {
  return inChunks(fed, OBJECTS_PER_STATEMENT).map((chunk) => db.prepare(UPSERT_FED_OBJECTS).bind(JSON.stringify(chunk)));
}

/** How far the feed has brought the report: a sum that grows with every path fed (scripts/soak/ledger-feed-settled.ts). */
export function fedOriginObjectProgress(db: D1Database) {
  return orm(db).select({ n: sql<number>`COALESCE(SUM(${originObjects.fedSeq}), 0)` }).from(originObjects);
}

/** Every origin path's row in the report, for the books: a query, un-awaited, so it joins the one batch the books are read in. */
export function originObjectRows(db: D1Database) {
  return orm(db)
    .select({ origin_id: originObjects.originId, account_id: originObjects.accountId, path: originObjects.path, status: originObjects.status, version: originObjects.version, r2_key: originObjects.r2Key })
    .from(originObjects);
}

/** The origin path whose original is `r2Key`, if any: a query, so the books can batch it. */
export function originObjectAt(db: D1Database, r2Key: string) {
  return orm(db).select({ origin_id: originObjects.originId }).from(originObjects).where(eq(originObjects.r2Key, r2Key)).limit(1);
}
