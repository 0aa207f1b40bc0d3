// Charge keys: what a ledger row pays for. The ledger's unique (account_id, charge_key) index is
// what stops double billing, so every caller builds its key here and two spellings of one thing
// can never both be charged.
import type { DerivativeIdentity } from "../transform/derivative-identity.ts";

/** A synchronous request: a retry with a new request id is a new charge, so idempotency keys matter. */
export function requestChargeKey(requestId: string): string {
  return `req:${requestId}`;
}

/** An async job: every attempt of the job shares it, so a rerun never charges twice. */
export function jobChargeKey(jobId: string): string {
  return `job:${jobId}`;
}

/** One item of a batch charged under `parent` (a request's or a job's key). */
export function itemChargeKey(parent: string, ref: string): string {
  return `${parent}:${ref}`;
}

/** A URL-transform derivative: billed once per file, canonical transform and format class. */
export function transformChargeKey(identity: Omit<DerivativeIdentity, "accountId">): string {
  return `transform:${identity.fileId}:${identity.canonical}${identity.formatClass === null ? "" : `@${identity.formatClass}`}`;
}

/** An operator's top-up, by the payment reference it records. */
export function topUpChargeKey(reference: string): string {
  return `topup:${reference}`;
}

/** A UTC day (YYYY-MM-DD) of an account's durable storage: charged once, however many sweeps run that day. */
export function storageChargeKey(day: string): string {
  return `storage:${day}`;
}
