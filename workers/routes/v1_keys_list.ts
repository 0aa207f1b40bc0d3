import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { apiKeySchema, apiKeyView } from "../keys/api-key-view.ts";
import { listKeys } from "../keys/key-store.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

export const route = createRoute({
  method: "get",
  path: "/v1/keys",
  tags: ["Keys"],
  summary: "List API keys",
  description: "Every key of the account, active and revoked. Secrets are never returned after creation.",
  security: bearerSecurity,
  middleware: [requireScope("keys")] as const,
  responses: {
    200: jsonContent(z.object({ data: z.array(apiKeySchema) }), "The account's keys"),
    ...problemResponses(),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const keys = await listKeys(c.env.DB, c.get("caller").accountId);
  return c.json({ data: keys.map(apiKeyView) }, 200);
};
