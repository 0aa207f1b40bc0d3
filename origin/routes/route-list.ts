// The origin's routes, one module per endpoint the operations declare (contracts/operations.ts,
// read through contracts/limits/deadlines.ts), found by its path: `/<family>/<verb>` is served by
// `origin/routes/<family>-<verb>.ts`'s `route`. A new endpoint is its declaration and its module;
// a declared endpoint without one, or a module serving another path, stops the origin as it starts.
import { isDeadlinePath, ORIGIN_DEADLINES, type DeadlinePath } from "../../contracts/limits/deadlines.ts";
import type { OriginRoute } from "./origin-route.ts";

/** The module serving `path`, relative to this folder. */
export function routeModuleOf(path: DeadlinePath): string {
  return `./${path.slice(1).replaceAll("/", "-")}.ts`;
}

function isRouteOf(path: DeadlinePath, module: unknown): module is { route: OriginRoute } {
  if (typeof module !== "object" || module === null || !("route" in module)) return false;
  const route = module.route as Partial<OriginRoute> | null;
  return route?.path === path && typeof route.handle === "function";
}

async function routeOf(path: DeadlinePath): Promise<OriginRoute> {
  const module: unknown = await import(routeModuleOf(path));
  if (!isRouteOf(path, module)) throw new Error(`origin/routes/${routeModuleOf(path).slice(2)} exports no route for ${path}`);
  return module.route;
}

export const originRoutes: readonly OriginRoute[] = await Promise.all(Object.keys(ORIGIN_DEADLINES).filter(isDeadlinePath).map(routeOf));
