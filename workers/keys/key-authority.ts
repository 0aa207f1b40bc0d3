import { hasScope, type Scope } from "../auth/scopes.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Caller } from "../hono-env.ts";
import { findKey, type KeyRecord } from "./key-store.ts";

export type KeyAction = "create" | "re-secret" | "revoke";

/**
 * The one rule for managing keys: a key may create, re-secret or revoke only keys whose scopes it
 * holds itself. Otherwise a `keys`-only key could mint a wider key, take over a wider key's
 * signing secret, or lock the owner out by revoking the account's only full-access key.
 */
export function requireHeldScopes(caller: readonly Scope[] | null, target: readonly Scope[] | null, action: KeyAction): void {
  const targetIsFullAccess = target === null || target.length === 0;
  const callerIsFullAccess = caller === null || caller.length === 0;
  const held = targetIsFullAccess ? callerIsFullAccess : target.every((scope) => hasScope(caller, scope));
  if (!held) {
    throw new ProblemError("forbidden_scope", `A key can only ${action} keys whose scopes it has itself.`);
  }
}

/** The caller's account's key `keyId`, once the caller may `action` it. */
export async function findManageableKey(db: D1Database, caller: Caller, keyId: string, action: KeyAction): Promise<KeyRecord> {
  const key = await findKey(db, caller.accountId, keyId);
  if (!key) throw new ProblemError("not_found", `No key ${keyId} in this account.`);
  requireHeldScopes(caller.scopes, key.scopes, action);
  return key;
}
