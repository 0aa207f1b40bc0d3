// Derivatives kept in R2, one row each in the account's shard that keeps their source's (./shard-derivatives.ts): the
// tier that survives edge-cache eviction without computing (and without billing, which the ledger
// guarantees on its own) again. The shard keeps a derivative's row and charges for it in one call.
import { chargeAnswered } from "../billing/charge-once.ts";
import type { Charge } from "../billing/charge.ts";
import type { Bindings } from "../env.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { derivativeBranch, everyBranch, ORIGIN_PATHS_BRANCH } from "../billing/account-branches.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { putObject, type ObjectBody } from "../objects/file-objects.ts";
import { formatClassOf, storedFormatClass, type DerivativeIdentity } from "./derivative-identity.ts";
import { recordPurgedDerivatives } from "./purged-derivative-store.ts";
import type { ShardDerivativeName, ShardDerivativeRow } from "./shard-derivatives.ts";
import { deleteObjects } from "../objects/delete-objects.ts";

export type { DerivativeIdentity } from "./derivative-identity.ts";

export interface DerivativeRecord {
  r2_key: string;
  etag: string;
  bytes: number;
  content_type: string;
}

type StoreEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS" | "FILE_SHARDS_PER_ACCOUNT">;

/** The account's shard that keeps the source's derivatives (workers/billing/account-branches.ts). */
const shardOf = (env: StoreEnv, id: Pick<DerivativeIdentity, "accountId" | "fileId">) => accountShard(env, id.accountId, derivativeBranch(id.fileId));

/** Every shard's answer to `ask`, together: what names no one source may be in any of them. */
async function fromEveryBranch<Row>(env: StoreEnv, accountId: string, ask: (shard: ReturnType<typeof everyBranch>[number]) => Promise<Row[]>): Promise<Row[]> {
  return (await Promise.all(everyBranch(env, accountId).map(ask))).flat();
}

export async function derivativeKey(id: DerivativeIdentity): Promise<string> {
  const name = (await sha256Hex(`${id.canonical}\n${storedFormatClass(id.formatClass)}`)).slice(0, 32);
  return `accounts/${id.accountId}/derivatives/${id.fileId}/${name}`;
}

function shardName(id: DerivativeIdentity): ShardDerivativeName {
  return { fileId: id.fileId, canonical: id.canonical, formatClass: storedFormatClass(id.formatClass) };
}

function identityOf(accountId: string, row: ShardDerivativeName): DerivativeIdentity {
  return { accountId, fileId: row.fileId, canonical: row.canonical, formatClass: formatClassOf(row.formatClass) };
}

export interface StoredDerivative {
  record: DerivativeRecord;
  object: R2ObjectBody;
}

const atCap = () =>
  new ProblemError("derivative_limit", `This source already has ${MAX_DERIVATIVES_PER_FILE} distinct transforms.`, {
    extensions: { limit: MAX_DERIVATIVES_PER_FILE },
  });

// Sources this isolate saw refused at the cap: their next miss asks the shard before computing.
// A source's object is the one place to look first otherwise: its key is the identity's, and an
// object is only served once the shard confirms its row.
const SOURCES_AT_CAP_LIMIT = 1_000;
const sourcesAtCap = new Set<string>();
const sourceName = (id: DerivativeIdentity) => `${id.accountId}/${id.fileId}`;

/**
 * The derivative's row and its object, or null when it must be made: again when its object went
 * missing (its R2 key is named by the identity, so a missing object needs no shard call), and a new
 * one only while the source has fewer than MAX_DERIVATIVES_PER_FILE (else 422 derivative_limit,
 * which storeDerivative also refuses after the work, as the shard keeps the count).
 */
export async function readStoredDerivative(env: StoreEnv, id: DerivativeIdentity): Promise<StoredDerivative | null> {
  const object = await env.FILES.get(await derivativeKey(id));
  if (object === null && !sourcesAtCap.has(sourceName(id))) return null;
  const { row, count } = await shardOf(env, id).storedDerivative(id.accountId, shardName(id));
  if (row && object) return { record: { r2_key: row.r2Key, etag: row.etag, bytes: row.bytes, content_type: row.contentType }, object };
  // An object no row accounts for (a keep that did not finish) is made again, never served.
  await object?.body.cancel();
  if (!row && count >= MAX_DERIVATIVES_PER_FILE) throw atCap();
  sourcesAtCap.delete(sourceName(id));
  return null;
}

export interface StoredBody extends ObjectBody {
  contentType: string;
  etag: string;
  /** The file an `l_` overlay drew over it: deleting that file drops this derivative too. */
  overlayFileId?: string | null;
}

/**
 * The object first (an origin reply is checked against its digest as it streams in), then the
 * charge and the row, together in the account's shard: a damaged reply is never charged, a
 * refused charge (or a new derivative past the source's cap, or of a source deleted meanwhile)
 * leaves no object behind, and a row never points at a missing object. No charge
 * when the source already has a derivative of the same bytes (its ETag is their digest): the URL
 * cannot know what only the image makes equal (anim_false on a still image, a background on an
 * opaque one), so such a derivative is stored and served under its own identity, already paid for.
 * Returns the object's key.
 */
export async function storeDerivative(env: StoreEnv, id: DerivativeIdentity, stored: StoredBody, charge: Charge | null = null, now = Date.now()): Promise<string> {
  const { size, contentType, etag } = stored;
  const r2Key = await derivativeKey(id);
  await putObject(env.FILES, r2Key, stored, { httpMetadata: { contentType } });
  const row: ShardDerivativeRow = { ...shardName(id), r2Key, etag, bytes: size, contentType, createdAt: now, overlayFileId: stored.overlayFileId ?? null };
  try {
    const answer = await shardOf(env, id).keepDerivative(id.accountId, row, charge, now);
    if (answer.outcome === "source_gone") throw new ProblemError("gone", `The source of this transform was deleted while it was made: nothing was kept or charged.`);
    if (answer.outcome === "derivative_limit") {
      if (sourcesAtCap.size >= SOURCES_AT_CAP_LIMIT) sourcesAtCap.clear();
      sourcesAtCap.add(sourceName(id));
      throw atCap();
    }
    if (charge !== null) chargeAnswered(charge, { outcome: answer.outcome, balanceMicros: answer.balanceMicros });
  } catch (error) {
    await env.FILES.delete(r2Key);
    throw error;
  }
  return r2Key;
}

/** Deletes the dropped rows' objects; returns their identities. */
async function deleteObjectsOf(env: StoreEnv, accountId: string, dropped: ShardDerivativeRow[]): Promise<DerivativeIdentity[]> {
  await deleteObjects(env.FILES, dropped.map((row) => row.r2Key));
  return dropped.map((row) => identityOf(accountId, row));
}

/**
 * Deletes the account's derivatives made of the given files or drawn with one of them as their
 * overlay, rows and objects, and records them as dropped on purpose (the books read that);
 * returns the identities deleted, so the caller (workers/files/file-lifecycle.ts) can purge their
 * edge-cache entries. `gone`: the files were deleted, and a derivative of one finished later is
 * refused at its keep.
 */
export async function deleteDerivativesOf(env: StoreEnv, accountId: string, fileIds: string[], gone: boolean, now = Date.now()): Promise<DerivativeIdentity[]> {
  const dropped = await fromEveryBranch(env, accountId, (shard) => shard.dropDerivativesMadeWith(accountId, fileIds, gone, now));
  const deleted = await deleteObjectsOf(env, accountId, dropped);
  await recordPurgedDerivatives(env.DB, deleted);
  return deleted;
}

/**
 * Deletes the named derivatives' rows and objects (one that is already gone is skipped) and records
 * them as dropped on purpose; returns how many were deleted.
 */
export async function deleteDerivatives(env: StoreEnv, accountId: string, identities: DerivativeIdentity[]): Promise<number> {
  const branches = [...new Set(identities.map((id) => derivativeBranch(id.fileId)))];
  const dropped = (
    await Promise.all(
      branches.map((branch) => accountShard(env, accountId, branch).dropNamedDerivatives(accountId, identities.filter((id) => derivativeBranch(id.fileId) === branch).map(shardName))),
    )
  ).flat();
  await deleteObjectsOf(env, accountId, dropped);
  await recordPurgedDerivatives(env.DB, identities);
  return dropped.length;
}

export interface DerivativeUse extends DerivativeIdentity {
  overlayFileId: string | null;
}

/** The account's derivatives of the given files or drawn with one as their overlay (another account's files yield none). */
export async function derivativesOfFiles(env: StoreEnv, accountId: string, fileIds: string[]): Promise<DerivativeUse[]> {
  const rows = await fromEveryBranch(env, accountId, (shard) => shard.derivativesMadeWith(accountId, fileIds));
  return rows.map((row) => ({ ...identityOf(accountId, row), overlayFileId: row.overlayFileId }));
}

export type DroppedDerivative = Omit<DerivativeIdentity, "accountId">;

/**
 * Forgets the derivatives of every origin-backed source whose id starts with `sourcePrefix`
 * (workers/origins/origin-source-id.ts): rows and objects. Their edge-cache entries are keyed by
 * origin path, not by source, so the caller purges those from what this returns.
 */
export async function deleteDerivativesUnder(env: StoreEnv, accountId: string, sourcePrefix: string): Promise<DroppedDerivative[]> {
  const dropped = await accountShard(env, accountId, ORIGIN_PATHS_BRANCH).dropDerivativesUnder(accountId, sourcePrefix);
  return (await deleteObjectsOf(env, accountId, dropped)).map(({ accountId: _accountId, ...rest }) => rest);
}

/** The derivatives of every origin-backed source whose id starts with `sourcePrefix`, kept. */
export async function derivativesUnder(env: StoreEnv, accountId: string, sourcePrefix: string): Promise<DroppedDerivative[]> {
  const rows = await accountShard(env, accountId, ORIGIN_PATHS_BRANCH).derivativesUnder(accountId, sourcePrefix);
  return rows.map((row) => ({ fileId: row.fileId, canonical: row.canonical, formatClass: formatClassOf(row.formatClass) }));
}
