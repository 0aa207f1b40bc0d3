import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { findManageableKey } from "../keys/key-authority.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { issueSigningSecret } from "../transform/transform-key.ts";

export const route = createRoute({
  method: "post",
  path: "/v1/keys/{key_id}/signing-secret",
  tags: ["Keys"],
  summary: "Issue (or rotate) the key's URL-transform signing secret",
  description:
    "Transform URLs of this key may then carry an `s_` token: the HMAC-SHA256 of the canonical path under this secret. The previous secret stops working within 30 seconds. Shown once. A key can only do this for keys whose scopes it has itself (403).",
  security: bearerSecurity,
  middleware: [requireScope("keys")] as const,
  request: { params: z.object({ key_id: z.string().max(64) }), headers: idempotencyHeaders },
  responses: {
    200: jsonContent(
      z.object({ key_id: z.string(), signing_secret: z.string().openapi({ example: "tsk_Xq3..." }) }).openapi("TransformSigningSecret"),
      "The new secret, shown once",
    ),
    ...problemResponses("not_found"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { key_id } = c.req.valid("param");
  const caller = c.get("caller");
  await findManageableKey(c.env.DB, caller, key_id, "re-secret");
  const secret = await issueSigningSecret(c.env, caller.accountId, key_id);
  return c.json({ key_id, signing_secret: secret }, 200);
};
