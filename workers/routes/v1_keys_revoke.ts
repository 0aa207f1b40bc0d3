import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";
import { apiKeySchema, apiKeyView } from "../keys/api-key-view.ts";
import { forgetPresentedKey } from "../auth/presented-key.ts";
import { findManageableKey } from "../keys/key-authority.ts";
import { findKey, revokeKey } from "../keys/key-store.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

export const route = createRoute({
  method: "delete",
  path: "/v1/keys/{key_id}",
  tags: ["Keys"],
  summary: "Revoke an API key",
  description:
    "Effective on the next request. Revoking an already revoked key returns it unchanged. The last active key of an account cannot be revoked (409). A key can only revoke keys whose scopes it has itself (403).",
  security: bearerSecurity,
  middleware: [requireScope("keys")] as const,
  request: { params: z.object({ key_id: z.string().max(64).openapi({ example: "key_7QdVb2Rk9sW1mXc4TzA0" }) }) },
  responses: {
    200: jsonContent(apiKeySchema, "The revoked key"),
    ...problemResponses("not_found", "conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const { accountId } = caller;
  const { key_id } = c.req.valid("param");
  await findManageableKey(c.env.DB, caller, key_id, "revoke");
  const outcome = await revokeKey(c.env.DB, accountId, key_id);
  forgetPresentedKey(key_id);
  if (outcome === "not_found") throw new ProblemError("not_found", `No key ${key_id} in this account.`);
  if (outcome === "last_active_key") {
    throw new ProblemError("conflict", "This is the account's last active key; create another before revoking it.");
  }
  return c.json(apiKeyView((await findKey(c.env.DB, accountId, key_id))!), 200);
};
