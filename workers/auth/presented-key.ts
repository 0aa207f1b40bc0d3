// The key an API call presents, looked up by its secret's hash and remembered in the isolate for
// a short while (memo/isolate-memo.ts): every API call would otherwise read the shared
// database once for its key, the one statement left there on a processing call. A revocation
// takes effect at once in the isolate that made it and within MEMO_MS in the others.
import { findKeyBySecretHash, type PresentedKey } from "../keys/key-store.ts";
import { isolateMemo } from "../memo/isolate-memo.ts";

const memo = isolateMemo<PresentedKey | null>();

/** The key whose secret hashes to `secretHash`, revoked or not; null when there is none. */
export function presentedKey(db: D1Database, secretHash: string, now = Date.now()): Promise<PresentedKey | null> {
  return memo.get(secretHash, () => findKeyBySecretHash(db, secretHash), now);
}

/** Drops this isolate's remembered copy of a key after it changed (a revocation). */
export function forgetPresentedKey(keyId: string): void {
  memo.forgetWhere((key) => key?.id === keyId);
}
