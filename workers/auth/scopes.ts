import { operationScopes } from "../../contracts/operations.ts";

/** Scopes of the resources a key reads and manages beside the operations it runs. */
const resourceScopes = ["files", "jobs", "keys", "account"] as const;

/** Every scope: each operation's (contracts/operations.ts), then the resources'. */
export const scopes: readonly [Scope, ...Scope[]] = [...operationScopes, ...resourceScopes];
export type Scope = (typeof operationScopes)[number] | (typeof resourceScopes)[number];

/** A key with no scopes has full access. */
export function hasScope(granted: readonly Scope[] | null, needed: Scope): boolean {
  return granted === null || granted.length === 0 || granted.includes(needed);
}
