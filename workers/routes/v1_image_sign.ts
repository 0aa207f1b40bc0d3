import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { MAX_ORIGIN_PATH_LENGTH } from "../../contracts/transform/origin-path.ts";
import { MAX_TRANSFORM_LENGTH } from "../../contracts/transform/token-values.ts";
import type { AppEnv } from "../hono-env.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { signTransforms } from "../transform/sign-transform.ts";

/** Enough for a <picture> with three formats of eight widths each, and its <img>. */
export const MAX_SIGNED_TRANSFORMS = 32;

const signBody = z
  .object({
    key_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "A key id such as key_3kT9bQ7xLw3mZr9X.")
      .openapi({ example: "key_3kT9bQ7xLw3mZr9X", description: "The public id of an active key of this account: the key the URLs name and whose signing secret signs them." }),
    source: z
      .string()
      .min(1)
      .max(64 + 1 + MAX_ORIGIN_PATH_LENGTH)
      .regex(/^[^?#]+$/, "A source without a query or fragment: the transform path does not read them.")
      .openapi({
        example: "file_8kT2bQ7xLw3mZr9Xc1Vd",
        description: "What the URLs name after the transform, as written in a transform URL: a file id, or an origin's name and the path under it (`shop/products/a.jpg`, still percent-encoded).",
      }),
    transforms: z
      .array(z.string().min(1).max(MAX_TRANSFORM_LENGTH))
      .min(1)
      .max(MAX_SIGNED_TRANSFORMS)
      .openapi({ example: ["w_800,f_auto", "w_1600,f_auto"], description: "Transforms without `s_`, in any spelling the transform path accepts." }),
  })
  .strict()
  .openapi("SignTransformsRequest");

const signedSchema = z
  .object({
    key_id: z.string(),
    urls: z.array(
      z
        .object({
          transform: z.string().openapi({ description: "The transform as given." }),
          canonical: z.string().openapi({ example: "f_auto,w_800", description: "Its canonical form, which the signature covers; a transform naming a preset (`t_<name>`) keeps the name and its other tokens as given, in canonical order." }),
          signature: z.string().openapi({ example: "Xq3v9...", description: "The `s_` token's value." }),
          url: z.string().openapi({ example: "https://api.pixelpress.dev/v1/image/t/key_3kT9bQ7xLw3mZr9X/f_auto,w_800,s_Xq3v9.../file_8kT2bQ7xLw3mZr9Xc1Vd" }),
        })
        .openapi("SignedTransform"),
    ),
  })
  .openapi("SignedTransforms");

export const route = createRoute({
  method: "post",
  path: "/v1/image/sign",
  tags: ["Images"],
  summary: "Sign transform URLs without holding the signing secret",
  description: `Returns each transform's URL with its \`s_\` signature: the HMAC-SHA256 of the canonical path under the key's signing secret, the same check the transform path makes. For callers that should not hold the secret (a browser, the console); the secret itself is never returned. Up to ${MAX_SIGNED_TRANSFORMS} transforms of one source per call, in the order given. The signature covers the path only, so the URL may be served from any of the service's hostnames. The key must belong to this account and have a signing secret (409 \`conflict\` until POST /v1/keys/{key_id}/signing-secret has issued one); rotating that secret invalidates URLs signed before. A bad transform is a 400 \`transform_invalid\` pointing at \`/transforms/<index>\`; a source the transform path would refuse is refused the same way. Free; the key's rate limit applies.`,
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: signBody } } } },
  responses: {
    200: jsonContent(signedSchema, "The signed URLs, one per transform"),
    ...problemResponses("validation_failed", "transform_invalid", "origin_path_invalid", "not_found", "conflict", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const urls = await signTransforms(c.env, c.get("caller").accountId, { keyId: body.key_id, source: body.source, transforms: body.transforms }, publicBaseUrl(c.env, c.req.url));
  return c.json({ key_id: body.key_id, urls }, 200);
};
