import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { ORIGIN_NAME_PATTERN } from "../../contracts/transform/origin-path.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { createOrigin } from "../origins/origin-store.ts";
import { originSchema, originView } from "../origins/origin-view.ts";
import { originRecordFor } from "../origins/register-origin.ts";

const name = z.string().regex(ORIGIN_NAME_PATTERN).openapi({ example: "shop", description: "Lower-case letters, digits and `-`, 1 to 32 characters; the transform URL's segment after the transform." });

const httpOrigin = z
  .object({
    name,
    base_url: z.string().max(2048).openapi({ example: "https://cdn.example.com/images/", description: "https only (http only where loopback URLs are allowed, for local development). No query or fragment." }),
  })
  .strict();

const s3Origin = z
  .object({
    name,
    s3: z
      .object({
        endpoint: z.string().max(2048).openapi({ example: "https://<account>.r2.cloudflarestorage.com" }),
        bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,62}$/).openapi({ example: "product-photos" }),
        region: z.string().max(64).optional().openapi({ example: "auto", description: "Defaults to `auto` (R2)." }),
        access_key_id: z.string().min(1).max(256),
        secret_access_key: z.string().min(1).max(512).openapi({ description: "Sealed at rest; never shown again." }),
      })
      .strict(),
  })
  .strict();

export const route = createRoute({
  method: "post",
  path: "/v1/origins",
  tags: ["Images"],
  summary: "Register a remote origin",
  description:
    "Names where the account's own images live, so transform URLs can serve them: `/v1/image/t/{key_id}/{transform}/{name}/{path}` fetches `base_url` + `path`. Either a public `base_url`, or a private S3-compatible bucket (`s3`: endpoint, bucket, region, access key; requests are signed with SigV4, the secret is sealed at rest). The URL passes the SSRF guard now and on every fetch and redirect. A name already in use is a 409.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: {
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: z.union([httpOrigin, s3Origin]).openapi("CreateOriginRequest") } } },
  },
  responses: {
    201: jsonContent(originSchema, "The registered origin"),
    ...problemResponses("validation_failed", "source_invalid_url", "source_forbidden_address", "conflict", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const record = await createOrigin(c.env, await originRecordFor(c.env, accountId, c.req.valid("json")));
  return c.json(originView(record), 201);
};
