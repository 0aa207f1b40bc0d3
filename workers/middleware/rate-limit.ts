import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env.ts";
import { countersPerKey, countInWindow, perMinuteLimit } from "../rate-limit/fixed-window.ts";

/** Fixed one-minute windows per key, each key counted by its own Durable Objects (rate-limit/rate-window-counter.ts). */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limit = perMinuteLimit(c.env.RATE_LIMIT_PER_MINUTE);
  const headers = await countInWindow(c.env.RATE_WINDOWS, {
    subject: c.get("caller").keyId,
    limit,
    policy: "per-key",
    exceeded: `This key may make ${limit} requests per minute.`,
    counters: countersPerKey(c.env.RATE_WINDOW_COUNTERS_PER_KEY),
  });
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
