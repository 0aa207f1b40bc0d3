// Every statement on `purged_derivatives`: the identities of derivatives dropped on purpose while
// their source lives on, kept for the books.
import { sql } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { purgedDerivatives } from "../db/schema.ts";
import { storedFormatClass, type DerivativeIdentity } from "./derivative-identity.ts";
import { inChunks } from "../db/in-chunks.ts";

// Five parameters a row; D1 binds at most 100 per statement.
const ROWS_PER_INSERT = 20;

/** Records that these derivatives were dropped (again: the time moves on). */
export async function recordPurgedDerivatives(db: D1Database, identities: DerivativeIdentity[], now = Date.now()): Promise<void> {
  for (const chunk of inChunks(identities, ROWS_PER_INSERT)) {
    const rows = chunk.map((id) => ({ ...id, formatClass: storedFormatClass(id.formatClass), purgedAt: now }));
    await orm(db)
      .insert(purgedDerivatives)
      .values(rows)
      .onConflictDoUpdate({
        target: [purgedDerivatives.accountId, purgedDerivatives.fileId, purgedDerivatives.canonical, purgedDerivatives.formatClass],
        set: { purgedAt: sql`excluded.purged_at` },
      })
      .run();
  }
}

/** Every purged identity, for the books: a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
export function purgedDerivativeRows(db: D1Database) {
  return orm(db)
    .select({ account_id: purgedDerivatives.accountId, file_id: purgedDerivatives.fileId, canonical: purgedDerivatives.canonical, format_class: purgedDerivatives.formatClass })
    .from(purgedDerivatives);
}
