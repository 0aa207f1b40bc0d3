import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { PRESET_NAME_PATTERN } from "../../contracts/transform/token-values.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { purgeCountsSchema } from "../origins/origin-view.ts";
import { forgetPreset } from "../presets/preset-expansion.ts";
import { deletePreset } from "../presets/preset-store.ts";
import { presetSchema, presetView } from "../presets/preset-view.ts";
import { purgePreset } from "../presets/purge-preset.ts";

export const route = createRoute({
  method: "delete",
  path: "/v1/presets/{name}",
  tags: ["Images"],
  summary: "Delete a named preset",
  description:
    "URLs naming it answer 400 `transform_invalid` (pointing at `/transform/t_<name>`) from now on in the data centre that runs the call, and within 30 s elsewhere; what it made is purged: derivatives in R2, this data centre's edge-cache entries and, with the service's zone token, every data centre's (`purged.cdn` says how that went). A URL spelling its transform out is computed again on its next request and not charged again.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: { params: z.object({ name: z.string().regex(PRESET_NAME_PATTERN).openapi({ example: "thumb" }) }) },
  responses: {
    200: jsonContent(z.object({ preset: presetSchema, purged: purgeCountsSchema }), "The deleted preset and what was dropped with it"),
    ...problemResponses("not_found"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const record = await deletePreset(c.env.DB, accountId, c.req.valid("param").name);
  forgetPreset(accountId, record.name);
  const purged = await purgePreset(c.env, accountId, record.name);
  return c.json({ preset: presetView(record), purged }, 200);
};
