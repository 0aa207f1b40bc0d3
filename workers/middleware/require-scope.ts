import { createMiddleware } from "hono/factory";
import { hasScope, type Scope } from "../auth/scopes.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";

export function requireScope(scope: Scope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!hasScope(c.get("caller").scopes, scope)) {
      throw new ProblemError("forbidden_scope", `This operation needs the \`${scope}\` scope.`, {
        extensions: { required_scope: scope },
      });
    }
    await next();
  });
}
