import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { findAccountSettings, updateAccountSettings } from "../accounts/account-store.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { forgetAccountKeys } from "../transform/transform-key.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

const settingsSchema = z
  .object({
    require_signed_transforms: z.boolean().openapi({
      description: "Refuse URL-transform requests without a valid `s_` signature (403). Takes effect within 30 seconds.",
    }),
  })
  .strict()
  .openapi("AccountSettings");

export const route = createRoute({
  method: "patch",
  path: "/v1/account",
  tags: ["Account"],
  summary: "Change account settings",
  security: bearerSecurity,
  middleware: [requireScope("account")] as const,
  request: { body: { required: true, content: { "application/json": { schema: settingsSchema.partial() } } } },
  responses: { 200: jsonContent(settingsSchema, "The settings now in force"), ...problemResponses("validation_failed") },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const body = c.req.valid("json");
  await updateAccountSettings(c.env.DB, accountId, body);
  forgetAccountKeys(accountId);
  const settings = await findAccountSettings(c.env.DB, accountId);
  return c.json({ require_signed_transforms: settings!.require_signed_transforms }, 200);
};
