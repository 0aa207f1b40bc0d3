// Named presets: the only place the `presets` table's SQL lives.
import { and, asc, eq } from "drizzle-orm";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { orm } from "../db/orm.ts";
import { presets } from "../db/schema.ts";

export interface PresetRecord {
  account_id: string;
  name: string;
  /** The canonical transform the name expands to. */
  transform: string;
  created_at: number;
  updated_at: number;
}

const columns = {
  account_id: presets.accountId,
  name: presets.name,
  transform: presets.transform,
  created_at: presets.createdAt,
  updated_at: presets.updatedAt,
};

function named(accountId: string, name: string) {
  return and(eq(presets.accountId, accountId), eq(presets.name, name));
}

/**
 * Creates the preset, or points an existing name at a new transform. Returns the preset as stored
 * and the transform it expanded to before (null for a new name). Two writers racing may both see
 * the older transform; each then purges, which costs a recompute and never a charge.
 */
export async function putPreset(db: D1Database, accountId: string, name: string, transform: string, now = Date.now()): Promise<{ record: PresetRecord; previous: string | null }> {
  const previous = await orm(db).select({ transform: presets.transform }).from(presets).where(named(accountId, name)).get();
  const record = await orm(db)
    .insert(presets)
    .values({ accountId, name, transform, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [presets.accountId, presets.name], set: { transform, updatedAt: now } })
    .returning(columns)
    .get();
  return { record, previous: previous?.transform ?? null };
}

export function listPresets(db: D1Database, accountId: string): Promise<PresetRecord[]> {
  return orm(db).select(columns).from(presets).where(eq(presets.accountId, accountId)).orderBy(asc(presets.name)).all();
}

/** The canonical transform `name` expands to in the account, or null. */
export async function findPresetTransform(db: D1Database, accountId: string, name: string): Promise<string | null> {
  const row = await orm(db).select({ transform: presets.transform }).from(presets).where(named(accountId, name)).get();
  return row?.transform ?? null;
}

/** Another account's preset is not found, like one that never was. */
export async function deletePreset(db: D1Database, accountId: string, name: string): Promise<PresetRecord> {
  const record = await orm(db).delete(presets).where(named(accountId, name)).returning(columns).get();
  if (!record) throw new ProblemError("not_found", `No preset ${name} in this account.`);
  return record;
}
