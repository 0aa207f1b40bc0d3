// The key named in a transform URL, with what serving it needs: the account, whether the account
// requires signatures, and the key's signing secret. Transform URLs sit in <img> tags and are
// fetched at page-view rates, so a lookup is remembered in the isolate for a short while
// (isolate-memo.ts): a revoked key or a changed setting takes effect within MEMO_MS.
import type { Scope } from "../auth/scopes.ts";
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { seal, unseal } from "../crypto/seal.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { findActiveTransformKey, setSigningSecret } from "../keys/key-store.ts";
import { isolateMemo } from "../memo/isolate-memo.ts";

export interface TransformKey {
  keyId: string;
  accountId: string;
  plan: "free" | "pro";
  scopes: Scope[] | null;
  requireSigned: boolean;
  signingSecret: string | null;
}

type KeyEnv = Pick<Bindings, "DB" | "SIGNING_SECRET">;

const memo = isolateMemo<TransformKey | null>();

/** The key as stored now, bypassing the memo: null when it is unknown or revoked. */
export async function loadTransformKey(env: KeyEnv, keyId: string): Promise<TransformKey | null> {
  const row = await findActiveTransformKey(env.DB, keyId);
  if (!row) return null;
  return {
    keyId,
    accountId: row.account_id,
    plan: row.plan,
    scopes: row.scopes,
    requireSigned: row.require_signed_transforms,
    signingSecret: row.signing_secret_sealed ? await unseal(env.SIGNING_SECRET, row.signing_secret_sealed) : null,
  };
}

/** An active key; unknown and revoked keys are the same 404. */
export async function findTransformKey(env: KeyEnv, keyId: string, now = Date.now()): Promise<TransformKey> {
  const key = await memo.get(keyId, () => loadTransformKey(env, keyId), now);
  if (!key) throw new ProblemError("not_found", `No active key ${keyId}.`);
  return key;
}

/**
 * Drops this isolate's remembered keys of an account, after a change to what they carry (its
 * signing requirement): the isolate that took the change applies it at once, the others within
 * MEMO_MS.
 */
export function forgetAccountKeys(accountId: string): void {
  memo.forgetWhere((key) => key?.accountId === accountId);
}

/** Creates (or replaces) the key's signing secret and returns it; only its sealed form is kept. */
export async function issueSigningSecret(env: KeyEnv, accountId: string, keyId: string): Promise<string> {
  const secret = `tsk_${encodeBase64(crypto.getRandomValues(new Uint8Array(24)), "url")}`;
  const updated = await setSigningSecret(env.DB, accountId, keyId, await seal(env.SIGNING_SECRET, secret));
  if (!updated) throw new ProblemError("not_found", `No key ${keyId} in this account.`);
  memo.forget(keyId);
  return secret;
}
