// Which derivatives were computed through which preset: the only place the `preset_derivatives`
// table's SQL lives. A row is written when a derivative is computed for a URL naming a preset, and
// taken when the preset changes or goes, so its derivatives can be dropped with it.
import { and, eq } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { presetDerivatives } from "../db/schema.ts";
import { formatClassOf, storedFormatClass, type DerivativeIdentity } from "../derivatives/derivative-identity.ts";

export interface PresetDerivative {
  identity: DerivativeIdentity;
  /** The edge-cache URL the derivative was put under. */
  cacheUrl: string;
}

export async function recordPresetDerivative(db: D1Database, presetName: string, made: PresetDerivative): Promise<void> {
  const { identity, cacheUrl } = made;
  await orm(db)
    .insert(presetDerivatives)
    .values({ accountId: identity.accountId, presetName, fileId: identity.fileId, canonical: identity.canonical, formatClass: storedFormatClass(identity.formatClass), cacheUrl })
    .onConflictDoNothing()
    .run();
}

/** Removes and returns what the account's preset `name` made. */
export async function takePresetDerivatives(db: D1Database, accountId: string, presetName: string): Promise<PresetDerivative[]> {
  const rows = await orm(db)
    .delete(presetDerivatives)
    .where(and(eq(presetDerivatives.accountId, accountId), eq(presetDerivatives.presetName, presetName)))
    .returning()
    .all();
  return rows.map((row) => ({
    identity: { accountId: row.accountId, fileId: row.fileId, canonical: row.canonical, formatClass: formatClassOf(row.formatClass) },
    cacheUrl: row.cacheUrl,
  }));
}
