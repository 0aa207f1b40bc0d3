// How a shard reads what the shared database held for its account before the shard existed: page
// by page in key order, so no single statement returns an account's whole history.
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
