// An entry of the route list in routes/index.ts: a route file's `route` and `handler`, checked
// against each other where the entry is written, or a file's own registration where it mounts
// several routes. The list registers them in its order, which is the OpenAPI document's order.
import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";

export interface RouteEntry {
  register(app: OpenAPIHono<AppEnv>): void;
}

export function routeEntry<Route extends RouteConfig>(module: { route: Route; handler: RouteHandler<Route, AppEnv> }): RouteEntry {
  return { register: (app) => app.openapi(module.route, module.handler) };
}
