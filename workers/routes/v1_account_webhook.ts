import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { webhookTargetSchema } from "../../contracts/envelope.ts";
import { setAccountWebhook } from "../accounts/account-store.ts";
import { seal } from "../crypto/seal.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { generateWebhookSecret } from "../../contracts/webhooks/signature.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";

const accountWebhookSchema = z
  .object({
    url: z.string().nullable().openapi({ example: "https://hooks.example.com/pixelpress" }),
    secret: z.string().optional().openapi({ description: "Shown once, when it was generated for you." }),
  })
  .openapi("AccountWebhook");

export const putRoute = createRoute({
  method: "put",
  path: "/v1/account/webhook",
  tags: ["Account"],
  summary: "Set the account's webhook endpoint",
  description: "Async jobs that name no webhook of their own report here. Omit `secret` and one is generated and shown once. The URL passes the same address guard as sources.",
  security: bearerSecurity,
  middleware: [requireScope("account")] as const,
  request: { body: { required: true, content: { "application/json": { schema: webhookTargetSchema } } } },
  responses: { 200: jsonContent(accountWebhookSchema, "The endpoint now in use"), ...problemResponses("validation_failed", "unprocessable") },
});

export const putHandler: RouteHandler<typeof putRoute, AppEnv> = async (c) => {
  const { url, secret } = c.req.valid("json");
  checkWebhookUrl(c.env, url, "/url");
  const effective = secret ?? generateWebhookSecret();
  await setAccountWebhook(c.env.DB, c.get("caller").accountId, { url, secretSealed: await seal(c.env.SIGNING_SECRET, effective) });
  return c.json({ url, ...(secret ? {} : { secret: effective }) }, 200);
};

export const deleteRoute = createRoute({
  method: "delete",
  path: "/v1/account/webhook",
  tags: ["Account"],
  summary: "Remove the account's webhook endpoint",
  security: bearerSecurity,
  middleware: [requireScope("account")] as const,
  responses: { 200: jsonContent(accountWebhookSchema, "No endpoint is set"), ...problemResponses() },
});

export const deleteHandler: RouteHandler<typeof deleteRoute, AppEnv> = async (c) => {
  await setAccountWebhook(c.env.DB, c.get("caller").accountId, null);
  return c.json({ url: null }, 200);
};
