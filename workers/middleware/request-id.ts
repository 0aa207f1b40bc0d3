import { createMiddleware } from "hono/factory";
import { newId } from "../crypto/ids.ts";
import type { AppEnv } from "../hono-env.ts";

export const REQUEST_ID_HEADER = "X-Request-Id";

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = newId("req");
  c.set("requestId", id);
  await next();
  c.res.headers.set(REQUEST_ID_HEADER, id);
});
