import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { presetTransform } from "../../contracts/transform/preset.ts";
import { MAX_TRANSFORM_LENGTH, PRESET_NAME_PATTERN, PRESET_NAME_RULE } from "../../contracts/transform/token-values.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { purgeCountsSchema } from "../origins/origin-view.ts";
import { forgetPreset } from "../presets/preset-expansion.ts";
import { putPreset } from "../presets/preset-store.ts";
import { presetSchema, presetView } from "../presets/preset-view.ts";
import { purgePreset } from "../presets/purge-preset.ts";

const body = z
  .object({
    name: z.string().regex(PRESET_NAME_PATTERN).openapi({ example: "thumb", description: `${PRESET_NAME_RULE}.` }),
    transform: z.string().max(MAX_TRANSFORM_LENGTH).openapi({ example: "w_300,h_200,fit_cover,f_auto", description: "Tokens as a transform URL writes them, read by the same parser; not `t_` (no preset names another) nor `s_`." }),
  })
  .strict()
  .openapi("PutPresetRequest");

const reply = z.object({
  preset: presetSchema,
  purged: z.union([purgeCountsSchema, z.null()]).openapi({ description: "What the name's previous transform had made, dropped; null when the name is new or its transform is unchanged." }),
});

export const route = createRoute({
  method: "post",
  path: "/v1/presets",
  tags: ["Images"],
  summary: "Create or change a named preset",
  description:
    "Names a transform, so transform URLs can say `t_<name>` for it. The transform is kept in its canonical form, and `t_<name>` and that form make one derivative: the same bytes, one cache entry, one charge. In a URL, `t_<name>` may sit beside other tokens: each replaces the preset's token of the same prefix, the preset's other tokens stay, and `dpr_` multiplies the size that results. A name already in use is pointed at the new transform (200): what the old one made is purged as a purge does (derivatives in R2, this data centre's edge-cache entries and, with the service's zone token, every data centre's), and the name's URLs serve the new transform at once in the data centre that took the change and within 30 s elsewhere. Their replies are cached for at most 30 s for that reason.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: {
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: body } } },
  },
  responses: {
    200: jsonContent(reply, "The preset, pointed at its new transform, and what its previous one made, purged"),
    201: jsonContent(reply, "The new preset"),
    ...problemResponses("validation_failed", "transform_invalid", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const { name, transform } = c.req.valid("json");
  const { record, previous } = await putPreset(c.env.DB, accountId, name, presetTransform(transform));
  forgetPreset(accountId, name);
  if (previous === null) return c.json({ preset: presetView(record), purged: null }, 201);
  const purged = previous === record.transform ? null : await purgePreset(c.env, accountId, name);
  return c.json({ preset: presetView(record), purged }, 200);
};
