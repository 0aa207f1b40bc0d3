import { createMiddleware } from "hono/factory";
import { hashApiKey, isWellFormedApiKey, malformedKeyDetail } from "../auth/api-key.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { constantTimeEqual } from "../../contracts/crypto/constant-time.ts";
import type { AppEnv } from "../hono-env.ts";
import { recordKeyUse } from "../keys/key-store.ts";
import { presentedKey } from "../auth/presented-key.ts";

const LAST_USED_RESOLUTION_MS = 60_000;

export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ProblemError("unauthorized", "Send an API key as `Authorization: Bearer ak_live_...`.");
  const secret = match[1]!;
  if (!isWellFormedApiKey(secret)) throw new ProblemError("unauthorized", malformedKeyDetail(secret));

  const hash = await hashApiKey(secret);
  const row = await presentedKey(c.env.DB, hash);
  if (!row || !constantTimeEqual(row.secret_hash, hash)) throw new ProblemError("unauthorized", "The API key is not valid.");
  if (row.revoked_at !== null) throw new ProblemError("unauthorized", "The API key has been revoked.");

  c.set("caller", {
    accountId: row.account_id,
    keyId: row.id,
    plan: row.plan,
    scopes: row.scopes,
  });

  const now = Date.now();
  if (row.last_used_at === null || now - row.last_used_at > LAST_USED_RESOLUTION_MS) {
    // The remembered row takes the write too, so the memo does not send one per request.
    row.last_used_at = now;
    c.executionCtx.waitUntil(recordKeyUse(c.env.DB, row.id, now));
  }
  await next();
});
