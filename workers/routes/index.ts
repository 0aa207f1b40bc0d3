import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import * as healthz from "./healthz.ts";
import * as accountGet from "./v1_account_get.ts";
import * as keysCreate from "./v1_keys_create.ts";
import * as keysList from "./v1_keys_list.ts";
import * as keysRevoke from "./v1_keys_revoke.ts";
import * as usageGet from "./v1_usage_get.ts";

/** Paths under /v1 that are addressed without an API key (the URL-transform path carries a key_id). */
export const UNAUTHENTICATED_PREFIXES = ["/v1/image/t/"];

export function registerRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(healthz.route, healthz.handler);
  app.openapi(keysList.route, keysList.handler);
  app.openapi(keysCreate.route, keysCreate.handler);
  app.openapi(keysRevoke.route, keysRevoke.handler);
  app.openapi(accountGet.route, accountGet.handler);
  app.openapi(usageGet.route, usageGet.handler);
}
