import { createMiddleware } from "hono/factory";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";
import { countRequest } from "../rate-limit/rate-window-store.ts";

const WINDOW_SECONDS = 60;

/**
 * Fixed one-minute windows per key, counted in D1 with one upsert per request. Headers follow
 * draft-ietf-httpapi-ratelimit-headers: the policy, then what remains and when the window resets.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limit = Number(c.env.RATE_LIMIT_PER_MINUTE) || 600;
  const now = Date.now();
  const windowStart = Math.floor(now / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_SECONDS * 1000 - now) / 1000));
  const used = await countRequest(c.env.DB, c.get("caller").keyId, windowStart);
  const headers = {
    "RateLimit-Policy": `"per-key";q=${limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"per-key";r=${Math.max(0, limit - used)};t=${resetSeconds}`,
  };
  if (used > limit) {
    throw new ProblemError("rate_limited", `This key may make ${limit} requests per minute.`, {
      extensions: { retry_after_seconds: resetSeconds },
      headers: { ...headers, "Retry-After": String(resetSeconds) },
    });
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
