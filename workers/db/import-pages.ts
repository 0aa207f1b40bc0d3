// How a shard reads what the shared database held for its account before the shard existed: page
// by page in key order, so no single statement returns an account's whole history.
import { and, asc, gt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { orm } from "./orm.ts";

export const IMPORT_PAGE = 1_000;

/**
 * Every row `page` returns, asking for the rows after the last one's `cursor` until a page comes
 * back short; each row is handed back without its cursor column.
 */
export async function readInPages<Row extends { cursor: number }>(page: (after: number, limit: number) => Promise<Row[]>): Promise<Omit<Row, "cursor">[]> {
  const rows: Omit<Row, "cursor">[] = [];
  for (let after = 0; ; ) {
    const read = await page(after, IMPORT_PAGE);
    for (const { cursor: _cursor, ...row } of read) rows.push(row);
    if (read.length < IMPORT_PAGE) return rows;
    after = read[read.length - 1]!.cursor;
  }
}

/**
 * An account's rows of a shared table in the order they were written (rowid), page by page, each
 * with `columns`: what a shard imports the first time it is used. `where` picks the account's rows.
 */
export function rowsInPages<Columns extends Record<string, SQLiteColumn>>(db: D1Database, table: SQLiteTable, columns: Columns, where: SQL | undefined) {
  const rowid = sql<number>`rowid`;
  return readInPages((after, limit) =>
    orm(db)
      .select({ cursor: rowid, ...columns })
      .from(table)
      .where(and(where, gt(rowid, after)))
      .orderBy(asc(rowid))
      .limit(limit)
      .all(),
  );
}
