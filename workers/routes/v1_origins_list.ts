import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { listOrigins } from "../origins/origin-store.ts";
import { originSchema, originView } from "../origins/origin-view.ts";

export const route = createRoute({
  method: "get",
  path: "/v1/origins",
  tags: ["Images"],
  summary: "List remote origins",
  description: "Every origin of the account, by name. S3 secrets are never returned.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  responses: {
    200: jsonContent(z.object({ data: z.array(originSchema) }), "The account's origins"),
    ...problemResponses(),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const records = await listOrigins(c.env, c.get("caller").accountId);
  return c.json({ data: records.map(originView) }, 200);
};
