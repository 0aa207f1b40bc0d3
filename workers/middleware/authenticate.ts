import { createMiddleware } from "hono/factory";
import { hashApiKey, isWellFormedApiKey } from "../auth/api-key.ts";
import type { Scope } from "../auth/scopes.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { constantTimeEqual } from "../../contracts/crypto/constant-time.ts";
import type { AppEnv } from "../hono-env.ts";

const LAST_USED_RESOLUTION_MS = 60_000;

interface KeyRow {
  id: string;
  account_id: string;
  secret_hash: string;
  scopes: string | null;
  revoked_at: number | null;
  last_used_at: number | null;
  plan: "free" | "pro";
}

export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ProblemError("unauthorized", "Send an API key as `Authorization: Bearer ak_live_...`.");
  const secret = match[1]!;
  if (!isWellFormedApiKey(secret)) throw new ProblemError("unauthorized", "The API key is malformed.");

  const hash = await hashApiKey(secret);
  const row = await c.env.DB.prepare(
    `SELECT k.id, k.account_id, k.secret_hash, k.scopes, k.revoked_at, k.last_used_at, a.plan
     FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.secret_hash = ?`,
  )
    .bind(hash)
    .first<KeyRow>();
  if (!row || !constantTimeEqual(row.secret_hash, hash)) throw new ProblemError("unauthorized", "The API key is not valid.");
  if (row.revoked_at !== null) throw new ProblemError("unauthorized", "The API key has been revoked.");

  c.set("caller", {
    accountId: row.account_id,
    keyId: row.id,
    plan: row.plan,
    scopes: row.scopes ? (JSON.parse(row.scopes) as Scope[]) : null,
  });

  const now = Date.now();
  if (row.last_used_at === null || now - row.last_used_at > LAST_USED_RESOLUTION_MS) {
    c.executionCtx.waitUntil(
      c.env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(now, row.id).run(),
    );
  }
  await next();
});
