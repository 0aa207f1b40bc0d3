// Charge keys: what a ledger row pays for. The ledger's unique (account_id, charge_key) index is
// what stops double billing, so every caller builds its key here and two spellings of one thing
// can never both be charged.
import type { DerivativeIdentity } from "../derivatives/derivative-identity.ts";

/** What every synchronous request's key (and its batch items') starts with. */
export const REQUEST_CHARGE_PREFIX = "req:";

/** A synchronous request: a retry with a new request id is a new charge, so idempotency keys matter. */
export function requestChargeKey(requestId: string): string {
  return `${REQUEST_CHARGE_PREFIX}${requestId}`;
}

const JOB = "job:";

/** An async job: every attempt of the job shares it, so a rerun never charges twice. */
export function jobChargeKey(jobId: string): string {
  return `${JOB}${jobId}`;
}

/** The job a job's charge key (or one of its items', itemChargeKey) names; null for any other key. */
export function jobOfChargeKey(chargeKey: string): string | null {
  return chargeKey.startsWith(JOB) ? chargeKey.slice(JOB.length).split(":")[0]! : null;
}

/** One item of a batch charged under `parent` (a request's or a job's key). */
export function itemChargeKey(parent: string, ref: string): string {
  return `${parent}:${ref}`;
}

const TRANSFORM = "transform:";

/**
 * A URL-transform derivative: billed once per source, canonical transform and format class. The
 * source is a file id, or an origin path's version (`{origin id}/{path digest}/{version}`,
 * workers/origins/origin-source-id.ts); neither holds `:`, so transformChargeSource reads the
 * source back as what comes before the first `:` after the prefix (a canonical may hold `:`).
 */
export function transformChargeKey(identity: Omit<DerivativeIdentity, "accountId">): string {
  return `${TRANSFORM}${identity.fileId}:${identity.canonical}${identity.formatClass === null ? "" : `@${identity.formatClass}`}`;
}

/** The source (file id or origin source id) a transform charge key names; null for any other key. */
export function transformChargeSource(chargeKey: string): string | null {
  if (!chargeKey.startsWith(TRANSFORM)) return null;
  const end = chargeKey.indexOf(":", TRANSFORM.length);
  return end < 0 ? null : chargeKey.slice(TRANSFORM.length, end);
}

// An overlay's token in the canonical transform (contracts/transform/registry.ts: `l_` and a file id).
const OVERLAY_TOKEN = /(?:^|,)l_(file_[A-Za-z0-9]+)/;

/** The file a transform charge key's derivative drew as its overlay (`l_`); null without one. */
export function transformChargeOverlay(chargeKey: string): string | null {
  const source = transformChargeSource(chargeKey);
  if (source === null) return null;
  return OVERLAY_TOKEN.exec(chargeKey.slice(TRANSFORM.length + source.length + 1))?.[1] ?? null;
}

/** An operator's top-up, by the payment reference it records. */
export function topUpChargeKey(reference: string): string {
  return `topup:${reference}`;
}

/**
 * Money one of an account's shards moves to another (./shard-transfers.ts): each side records its
 * half under its own key, numbered by the side that asked, so asking again for the same number is
 * answered with the same amount and never moves money twice. Each half names the branch, since the
 * report keeps every shard's rows under one account. A key is its kind's prefix for the branch, then
 * the move's number.
 */
export const ALLOTTED = "allot:";
export const transferKeys = {
  /** The first shard's half of an allotment to `branch`. */
  allotted: (branch: number) => `${ALLOTTED}${branch}:`,
  /** The branch's half of it. */
  received: (branch: number) => `allot-in:${branch}:`,
  /** The branch's half of a return the first shard asked of it. */
  returned: (branch: number) => `return:${branch}:`,
  /** The first shard's half of it. */
  recovered: (branch: number) => `return-in:${branch}:`,
};

/** A UTC day (YYYY-MM-DD) of an account's durable storage: charged once, however many sweeps run that day. */
export function storageChargeKey(day: string): string {
  return `storage:${day}`;
}
