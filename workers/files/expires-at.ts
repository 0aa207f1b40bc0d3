// `expires_at`, wherever a file's lifetime enters (POST /v1/files, POST /v1/uploads, PATCH
// /v1/files/{file_id}): one schema for its spelling and one function for what it means.
import { z } from "@hono/zod-openapi";
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export const expiresAtField = z
  .union([z.iso.datetime({ offset: true }), z.null()])
  .openapi({
    description:
      "`null`: a durable file, kept until it is deleted (metered as storage, within the plan's quota). An RFC 3339 time: the file's end, in the future and at most the account's retention from now. Omitted: the account's retention (24 h by default).",
    example: null,
  });

/**
 * The file's expiry in epoch milliseconds, or null for durable. `requested` undefined means the
 * account's retention; a time must lie in (now, now + retention]: a file kept longer is durable,
 * so that it is metered.
 */
export function resolveExpiry(requested: string | null | undefined, now: number, retentionMs: number, pointer = "/expires_at"): number | null {
  if (requested === null) return null;
  if (requested === undefined) return now + retentionMs;
  const at = Date.parse(requested);
  const latest = now + retentionMs;
  let detail: string | null = null;
  if (at <= now) detail = `${requested} is not in the future.`;
  else if (at > latest) {
    detail = `${requested} is past the account's retention (until ${new Date(latest).toISOString()}); use null to keep the file until it is deleted.`;
  }
  if (detail !== null) throw new ProblemError("validation_failed", detail, { errors: [{ pointer, detail }] });
  return at;
}
