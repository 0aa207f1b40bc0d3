import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { ORIGIN_NAME_PATTERN } from "../../contracts/transform/origin-path.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { purgeOrigin } from "../origins/purge-origin.ts";
import { deleteOrigin } from "../origins/origin-store.ts";
import { originSchema, originView, purgeCountsSchema } from "../origins/origin-view.ts";

export const route = createRoute({
  method: "delete",
  path: "/v1/origins/{name}",
  tags: ["Images"],
  summary: "Delete a remote origin",
  description:
    "Its transform URLs answer 404 from now on, and what was cached from it is dropped: originals and derivatives in R2, and the edge-cache entries of the data centre that runs the call; with the service's Cloudflare zone token also in every other data centre (`purged.cdn` says how that went), otherwise cached replies elsewhere expire with their freshness.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: { params: z.object({ name: z.string().regex(ORIGIN_NAME_PATTERN).openapi({ example: "shop" }) }) },
  responses: {
    200: jsonContent(z.object({ origin: originSchema, purged: purgeCountsSchema }), "The deleted origin and what was dropped with it"),
    ...problemResponses("not_found"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const record = await deleteOrigin(c.env, c.get("caller").accountId, c.req.valid("param").name);
  const purged = await purgeOrigin(c.env, record, {});
  return c.json({ origin: originView(record), purged }, 200);
};
