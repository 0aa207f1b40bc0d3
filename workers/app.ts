import { OpenAPIHono, z } from "@hono/zod-openapi";
import { every } from "hono/combine";
import { HTTPException } from "hono/http-exception";
import type { MiddlewareHandler } from "hono";
import { ProblemError } from "../contracts/problems/catalogue.ts";
import type { AppEnv } from "./hono-env.ts";
import { allowedMethodsMatcher } from "./http/allowed-methods.ts";
import { problemFromError, problemResponse } from "../contracts/problems/problem-response.ts";
import { validationProblem } from "../contracts/problems/validation-problem.ts";
import { acceptedFormsError } from "../contracts/problems/accepted-forms.ts";
import { aliasHost } from "./middleware/alias-host.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { idempotency } from "./middleware/idempotency.ts";
import { jsonBodyLimit, requireJsonBody } from "./middleware/json-body.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { requestId } from "./middleware/request-id.ts";
import { isUnauthenticatedPath, registerRoutes } from "./routes/index.ts";
import { openApiDocument, registerSecuritySchemes } from "./openapi/document.ts";
import { declareGateProblems } from "./openapi/gate-problems.ts";
import { earlyEdgeHit } from "./transform/early-edge-hit.ts";

// Route validation runs zod without a per-parse error map, so the one that names accepted forms is global.
z.config({ customError: acceptedFormsError });

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationProblem(result.error.issues, result.target);
    },
  });

  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? "unknown";
    if (!(error instanceof ProblemError) && !(error instanceof HTTPException)) console.error(`[${requestId}]`, error);
    const headers = error instanceof ProblemError ? error.headers : {};
    return problemResponse(problemFromError(error, requestId), { ...headers, "X-Request-Id": requestId });
  });

  app.use("*", requestId, aliasHost);
  const apiGate = every(jsonBodyLimit, requireJsonBody, authenticate, rateLimit, idempotency);
  const gateUnlessUnauthenticated: MiddlewareHandler<AppEnv> = (c, next) => (isUnauthenticatedPath(c.req.path) ? next() : apiGate(c, next));
  app.use("/v1/*", gateUnlessUnauthenticated);

  registerRoutes(app);
  registerSecuritySchemes(app);
  declareGateProblems(app);
  app.doc31("/openapi.json", openApiDocument);

  const allowedMethods = allowedMethodsMatcher(app.routes);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      throw new ProblemError("method_not_allowed", `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`, {
        headers: { Allow: allowed.join(", ") },
      });
    }
    throw new ProblemError("not_found", `No route for ${c.req.method} ${c.req.path}.`);
  });

  // A transform URL that hits the edge cache is answered before the dispatch, through the route's
  // own functions (transform/early-edge-hit.ts); everything else, misses included, is dispatched.
  const dispatch = app.fetch;
  app.fetch = async (request, env, executionCtx) => {
    const hit = env !== undefined && "DB" in env ? await earlyEdgeHit(request, env) : null;
    return hit ?? dispatch(request, env, executionCtx);
  };

  return app;
}

export type App = ReturnType<typeof createApp>;
