export const scopes = ["images", "pdf", "xlsx", "files", "jobs", "keys", "account"] as const;
export type Scope = (typeof scopes)[number];

/** A key with no scopes has full access. */
export function hasScope(granted: readonly Scope[] | null, needed: Scope): boolean {
  return granted === null || granted.length === 0 || granted.includes(needed);
}
