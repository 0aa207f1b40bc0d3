import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes.ts";
import type { AppEnv } from "../hono-env.ts";
import { apiKeySchema, apiKeyView } from "../keys/api-key-view.ts";
import { requireHeldScopes } from "../keys/key-authority.ts";
import { createKey } from "../keys/key-store.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

const createKeyBody = z
  .object({
    name: z.string().min(1).max(100).optional().openapi({ example: "production backend" }),
    scopes: z
      .array(z.enum(scopes))
      .max(scopes.length)
      .optional()
      .openapi({ description: "Omit for full access. A key can only grant scopes it has itself.", example: ["images"] }),
  })
  .strict()
  .openapi("CreateKeyRequest");

const createdKeySchema = apiKeySchema
  .extend({
    secret: z.string().openapi({
      description: "Shown once. Store it now: only its SHA-256 hash is kept.",
      example: "ak_live_3fQ9Xz0bLm2Kp7Vt5Rw8Yc1Nd4Gh6Js0Ue2Fa",
    }),
  })
  .openapi("CreatedApiKey");

export const route = createRoute({
  method: "post",
  path: "/v1/keys",
  tags: ["Keys"],
  summary: "Create an API key",
  security: bearerSecurity,
  middleware: [requireScope("keys")] as const,
  request: {
    headers: idempotencyHeaders,
    body: { required: false, content: { "application/json": { schema: createKeyBody } } },
  },
  responses: {
    201: jsonContent(createdKeySchema, "The new key with its secret (shown once)"),
    ...problemResponses("validation_failed", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const body = c.req.valid("json") ?? {};
  const wanted = body.scopes && body.scopes.length > 0 ? body.scopes : null;
  requireHeldScopes(caller.scopes, wanted, "create");
  const { record, secret } = await createKey(c.env.DB, caller.accountId, { name: body.name, scopes: wanted });
  return c.json({ ...apiKeyView(record), secret }, 201);
};
