/**
 * The statements that write `items` through `query`, which reads its `?1` with json_each: one
 * statement for every `perStatement` items (each sized so its JSON stays well under D1's 2 MB for a
 * bound value), so a feed's whole batch is a few statements.
 */
export function jsonEachStatements(db: D1Database, query: string, items: unknown[], perStatement: number): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (let start = 0; start < items.length; start += perStatement) {
    statements.push(db.prepare(query).bind(JSON.stringify(items.slice(start, start + perStatement))));
  }
  return statements;
}
