import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { listPresets } from "../presets/preset-store.ts";
import { presetSchema, presetView } from "../presets/preset-view.ts";

export const route = createRoute({
  method: "get",
  path: "/v1/presets",
  tags: ["Images"],
  summary: "List named presets",
  description: "Every preset of the account, by name, with the canonical transform each expands to.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  responses: {
    200: jsonContent(z.object({ data: z.array(presetSchema) }), "The account's presets"),
    ...problemResponses(),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const records = await listPresets(c.env.DB, c.get("caller").accountId);
  return c.json({ data: records.map(presetView) }, 200);
};
