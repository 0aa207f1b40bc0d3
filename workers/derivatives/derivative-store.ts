// Derivatives kept in R2, one D1 row each: the tier that survives edge-cache eviction without
// computing (and without billing, which the ledger guarantees on its own) again.
import { and, count, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import { orm } from "../db/orm.ts";
import { derivatives } from "../db/schema.ts";
import type { Bindings } from "../env.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { putObject, type ObjectBody } from "../objects/file-objects.ts";
import { formatClassOf, storedFormatClass, type DerivativeIdentity } from "./derivative-identity.ts";
import { recordPurgedDerivatives } from "./purged-derivative-store.ts";

export type { DerivativeIdentity } from "./derivative-identity.ts";

export interface DerivativeRecord {
  r2_key: string;
  etag: string;
  bytes: number;
  content_type: string;
}

type StoreEnv = Pick<Bindings, "DB" | "FILES">;

export async function derivativeKey(id: DerivativeIdentity): Promise<string> {
  const name = (await sha256Hex(`${id.canonical}\n${storedFormatClass(id.formatClass)}`)).slice(0, 32);
  return `accounts/${id.accountId}/derivatives/${id.fileId}/${name}`;
}

function ofFile(accountId: string, fileId: string) {
  return and(eq(derivatives.accountId, accountId), eq(derivatives.fileId, fileId));
}

export async function findDerivative(db: D1Database, id: DerivativeIdentity): Promise<DerivativeRecord | null> {
  const row = await orm(db)
    .select({ r2_key: derivatives.r2Key, etag: derivatives.etag, bytes: derivatives.bytes, content_type: derivatives.contentType })
    .from(derivatives)
    .where(and(ofFile(id.accountId, id.fileId), eq(derivatives.canonical, id.canonical), eq(derivatives.formatClass, storedFormatClass(id.formatClass))))
    .get();
  return row ?? null;
}

export interface StoredDerivative {
  record: DerivativeRecord;
  object: R2ObjectBody;
}

/**
 * The derivative's row and its object, or null when it must be made: again when its object went
 * missing, and a new one only while the source has fewer than MAX_DERIVATIVES_PER_FILE (else 422
 * derivative_limit).
 */
export async function readStoredDerivative(env: StoreEnv, id: DerivativeIdentity): Promise<StoredDerivative | null> {
  const record = await findDerivative(env.DB, id);
  const object = record ? await env.FILES.get(record.r2_key) : null;
  if (record && object) return { record, object };
  if (!record && (await countDerivatives(env.DB, id.accountId, id.fileId)) >= MAX_DERIVATIVES_PER_FILE) {
    throw new ProblemError("derivative_limit", `This source already has ${MAX_DERIVATIVES_PER_FILE} distinct transforms.`, {
      extensions: { limit: MAX_DERIVATIVES_PER_FILE },
    });
  }
  return null;
}

export async function countDerivatives(db: D1Database, accountId: string, fileId: string): Promise<number> {
  const row = await orm(db).select({ n: count() }).from(derivatives).where(ofFile(accountId, fileId)).get();
  return row?.n ?? 0;
}

export interface StoredBody extends ObjectBody {
  contentType: string;
  etag: string;
  /** The file an `l_` overlay drew over it: deleting that file drops this derivative too. */
  overlayFileId?: string | null;
}

/**
 * Whether the file already has a derivative with these bytes (its ETag is their digest). The URL
 * cannot know what only the image makes equal (anim_false on a still image, a background on an
 * opaque one): such a derivative is stored and served under its own identity, but it is the same
 * output, already paid for. Two different spellings computed at the same moment can each miss the
 * other and both pay, as before this rule.
 */
export async function hasSameBytesDerivative(db: D1Database, id: DerivativeIdentity, etag: string): Promise<boolean> {
  const row = await orm(db)
    .select({ canonical: derivatives.canonical })
    .from(derivatives)
    .where(and(ofFile(id.accountId, id.fileId), eq(derivatives.etag, etag)))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * The object first (an origin reply is checked against its digest as it streams in), then the
 * charge, then the row: a damaged reply is never charged, a refused charge leaves no object behind,
 * and a row never points at a missing object. No charge when the file already has a derivative of
 * the same bytes. Returns the object's key.
 */
export async function storeDerivative(
  env: StoreEnv,
  id: DerivativeIdentity,
  stored: StoredBody,
  charge: () => Promise<unknown> = () => Promise.resolve(undefined),
  now = Date.now(),
): Promise<string> {
  const { size, contentType, etag } = stored;
  const r2Key = await derivativeKey(id);
  await putObject(env.FILES, r2Key, stored, { httpMetadata: { contentType } });
  try {
    if (!(await hasSameBytesDerivative(env.DB, id, etag))) await charge();
  } catch (error) {
    await env.FILES.delete(r2Key);
    throw error;
  }
  await orm(env.DB)
    .insert(derivatives)
    .values({ ...id, formatClass: storedFormatClass(id.formatClass), r2Key, etag, bytes: size, contentType, createdAt: now, overlayFileId: stored.overlayFileId ?? null })
    .onConflictDoUpdate({
      target: [derivatives.accountId, derivatives.fileId, derivatives.canonical, derivatives.formatClass],
      set: { r2Key: sql`excluded.r2_key`, etag: sql`excluded.etag`, bytes: sql`excluded.bytes`, contentType: sql`excluded.content_type` },
    })
    .run();
  return r2Key;
}

// D1 binds at most 100 parameters per statement; each id is bound twice (source and overlay).
const FILES_PER_DELETE = 49;

/** Derivatives of the files, or drawn with one of them as their overlay. */
function madeWith(fileIds: string[]) {
  return or(inArray(derivatives.fileId, fileIds), inArray(derivatives.overlayFileId, fileIds));
}

/**
 * Deletes the derivative rows and objects made of the given files or drawn with one of them as
 * their overlay, and records them as dropped on purpose (the books read that); returns the
 * identities deleted, so the caller (workers/files/file-lifecycle.ts) can purge their edge-cache
 * entries.
 */
export async function deleteDerivativesOf(env: StoreEnv, fileIds: string[]): Promise<DerivativeIdentity[]> {
  const deleted: DerivativeIdentity[] = [];
  for (let i = 0; i < fileIds.length; i += FILES_PER_DELETE) {
    const chunk = fileIds.slice(i, i + FILES_PER_DELETE);
    const results = await orm(env.DB)
      .delete(derivatives)
      .where(madeWith(chunk))
      .returning({ r2Key: derivatives.r2Key, accountId: derivatives.accountId, fileId: derivatives.fileId, canonical: derivatives.canonical, formatClass: derivatives.formatClass })
      .all();
    for (let j = 0; j < results.length; j += 1000) await env.FILES.delete(results.slice(j, j + 1000).map((row) => row.r2Key));
    for (const { accountId, fileId, canonical, formatClass } of results) deleted.push({ accountId, fileId, canonical, formatClass: formatClassOf(formatClass) });
  }
  await recordPurgedDerivatives(env.DB, deleted);
  return deleted;
}

// Four parameters name a derivative; D1 binds at most 100 per statement.
const IDENTITIES_PER_DELETE = 24;

/**
 * Deletes the named derivatives' rows and objects (one that is already gone is skipped) and records
 * them as dropped on purpose; returns how many were deleted.
 */
export async function deleteDerivatives(env: StoreEnv, identities: DerivativeIdentity[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < identities.length; i += IDENTITIES_PER_DELETE) {
    const named = identities
      .slice(i, i + IDENTITIES_PER_DELETE)
      .map((id) => and(ofFile(id.accountId, id.fileId), eq(derivatives.canonical, id.canonical), eq(derivatives.formatClass, storedFormatClass(id.formatClass))));
    const rows = await orm(env.DB).delete(derivatives).where(or(...named)).returning({ r2Key: derivatives.r2Key }).all();
    if (rows.length > 0) await env.FILES.delete(rows.map((row) => row.r2Key));
    deleted += rows.length;
  }
  await recordPurgedDerivatives(env.DB, identities);
  return deleted;
}

export interface DerivativeUse extends DerivativeIdentity {
  overlayFileId: string | null;
}

/** The account's derivatives of the given files or drawn with one as their overlay (another account's files yield none). */
export async function derivativesOfFiles(db: D1Database, accountId: string, fileIds: string[]): Promise<DerivativeUse[]> {
  const rows = await orm(db)
    .select({
      accountId: derivatives.accountId,
      fileId: derivatives.fileId,
      canonical: derivatives.canonical,
      formatClass: derivatives.formatClass,
      overlayFileId: derivatives.overlayFileId,
    })
    .from(derivatives)
    .where(and(eq(derivatives.accountId, accountId), madeWith(fileIds)))
    .all();
  return rows.map((row) => ({ ...row, formatClass: formatClassOf(row.formatClass) }));
}

export type DroppedDerivative = Omit<DerivativeIdentity, "accountId">;

/**
 * Forgets the derivatives of every origin-backed source whose id starts with `sourcePrefix`
 * (workers/origins/origin-source-id.ts): rows and objects. Their edge-cache entries are keyed by
 * origin path, not by source, so the caller purges those from what this returns.
 */
export async function deleteDerivativesUnder(env: StoreEnv, accountId: string, sourcePrefix: string): Promise<DroppedDerivative[]> {
  const rows = await orm(env.DB)
    .delete(derivatives)
    .where(and(eq(derivatives.accountId, accountId), gte(derivatives.fileId, sourcePrefix), lt(derivatives.fileId, `${sourcePrefix}\uffff`)))
    .returning({ r2Key: derivatives.r2Key, fileId: derivatives.fileId, canonical: derivatives.canonical, formatClass: derivatives.formatClass })
    .all();
  for (let j = 0; j < rows.length; j += 1000) await env.FILES.delete(rows.slice(j, j + 1000).map((row) => row.r2Key));
  return rows.map(({ fileId, canonical, formatClass }) => ({ fileId, canonical, formatClass: formatClassOf(formatClass) }));
}

/** Every derivative row, for the books (scripts/soak/reconcile.ts): a query, un-awaited, so it can join the one batch (one transaction) the books are read in. */
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
    .from(derivatives);
}

/** The derivative whose object is `r2Key`, if any: a query, so the books can batch it with the file lookup. */
export function derivativeAt(db: D1Database, r2Key: string) {
  return orm(db).select({ file_id: derivatives.fileId }).from(derivatives).where(eq(derivatives.r2Key, r2Key)).limit(1);
}
