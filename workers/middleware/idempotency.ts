import { createMiddleware } from "hono/factory";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";
import { parseIdempotencyKey } from "../idempotency/idempotency-key.ts";
import {
  claim,
  complete,
  loadExisting,
  release,
  requestFingerprint,
  type IdempotencyScope,
} from "../idempotency/idempotency-store.ts";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const REPLAYED_HEADER = "Idempotent-Replayed";
const KEPT_HEADERS = ["content-type", "location"];

/**
 * Runs a POST at most once per (account, key, Idempotency-Key): the first request claims the key,
 * later ones get the stored response (no second charge), a different payload is a 422 and an
 * overlapping retry a 409. Failures on our side (5xx) are forgotten so that a retry can succeed.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header(IDEMPOTENCY_HEADER);
  if (c.req.method !== "POST" || header === undefined) return next();

  const caller = c.get("caller");
  const scope: IdempotencyScope = {
    accountId: caller.accountId,
    keyId: caller.keyId,
    idempotencyKey: parseIdempotencyKey(header),
  };
  const fingerprint = await requestFingerprint(c.req.method, c.req.path, await c.req.text());

  if (!(await claim(c.env, scope, fingerprint, Date.now()))) {
    const existing = await loadExisting(c.env, scope);
    if (existing && existing.fingerprint !== fingerprint) {
      throw new ProblemError(
        "idempotency_key_reused",
        "This Idempotency-Key was used with a different method, path or body.",
      );
    }
    if (!existing || existing.state === "running") {
      throw new ProblemError("idempotency_conflict", "A request with this Idempotency-Key is still running.", {
        headers: { "Retry-After": "1" },
      });
    }
    return new Response(existing.response.body, {
      status: existing.response.status,
      headers: { ...existing.response.headers, [REPLAYED_HEADER]: "true" },
    });
  }

  await next();

  if (c.res.status >= 500) {
    await release(c.env, scope);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = c.res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = await c.res.clone().text();
  await complete(c.env, scope, { status: c.res.status, headers, body });
});
