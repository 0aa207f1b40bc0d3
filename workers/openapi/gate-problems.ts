import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { isUnauthenticatedPath } from "../routes/index.ts";
import { problemResponses } from "./responses.ts";

const BODY_METHODS = new Set(["post", "put", "patch"]);

interface RegisteredRoute {
  method: string;
  path: string;
  responses: Record<string, unknown>;
}

/**
 * The gate in front of every authenticated /v1 route refuses a body that is too large (413) or
 * not JSON (415) before the route runs, so every such route can answer them. Declared here once,
 * after the routes are registered, for each route that takes a body and does not list them.
 */
export function declareGateProblems(app: OpenAPIHono<AppEnv>): void {
  const gate = problemResponses("payload_too_large", "unsupported_media_type");
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const route: RegisteredRoute = definition.route;
    if (!BODY_METHODS.has(route.method) || !route.path.startsWith("/v1/") || isUnauthenticatedPath(route.path)) continue;
    for (const status of [413, 415] as const) route.responses[status] ??= gate[status];
  }
}
