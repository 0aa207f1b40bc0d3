import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { MAX_ORIGIN_PATH_LENGTH, ORIGIN_NAME_PATTERN, originPathProblem } from "../../contracts/transform/origin-path.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { purgeCountsSchema } from "../origins/origin-view.ts";
import { findOrigin } from "../origins/origin-store.ts";
import { purgeOrigin, revalidateOrigin } from "../origins/purge-origin.ts";
import { purgeFiles } from "../files/file-lifecycle.ts";

// D1 binds at most 100 parameters a statement: the origin's id and the paths.
export const MAX_PURGE_PATHS = 90;
export const MAX_PURGE_FILES = 90;

const originPath = z
  .string()
  .max(MAX_ORIGIN_PATH_LENGTH)
  .superRefine((path, ctx) => {
    const problem = originPathProblem(path);
    if (problem !== null) ctx.addIssue({ code: "custom", message: `${problem}.` });
  });

const revalidate = z.boolean().default(false).openapi({
  description:
    "Keep the originals and derivatives and mark them stale instead (a soft purge): the next request asks the origin with the kept copy's validators; a 304 keeps every derivative, not charged again, and new bytes replace them. `originals` then counts the originals marked stale. An origin that fails meanwhile gets the kept copy served stale.",
});

const purgeBody = z
  .union([
    z.object({ files: z.array(z.string().max(64)).min(1).max(MAX_PURGE_FILES).openapi({ example: ["file_8kT2bQ7xLw3mZr9Xc1Vd"] }) }).strict(),
    z
      .object({
        origin: z.string().regex(ORIGIN_NAME_PATTERN).openapi({ example: "shop" }),
        paths: z.array(originPath).min(1).max(MAX_PURGE_PATHS).openapi({ example: ["/products/a.jpg"], description: "Paths as they appear in transform URLs, starting with `/`." }),
        revalidate,
      })
      .strict(),
    z
      .object({
        origin: z.string().regex(ORIGIN_NAME_PATTERN).openapi({ example: "shop" }),
        prefix: z.string().startsWith("/").max(MAX_ORIGIN_PATH_LENGTH).openapi({ example: "/products/", description: "Every path that starts with this." }),
        revalidate,
      })
      .strict(),
  ])
  .openapi("PurgeRequest");

export const route = createRoute({
  method: "post",
  path: "/v1/purge",
  tags: ["Images"],
  summary: "Purge cached images",
  description:
    "Drops what is cached for some files (their derivatives, those drawn with them as an `l_` overlay, and their mezzanines; the files stay), some paths of an origin, or every path of an origin under a prefix: originals kept from the origin, derivatives in R2, and edge-cache entries in the data centre that runs the call. The next request fetches and computes again; an unchanged original makes the same derivatives, which are not charged again. Free; the key's rate limit applies. When the service has a Cloudflare zone token, the same cache entries are purged by URL in every data centre too, and `cdn` reports how that went (a failure there never undoes the rest); without one, other data centres keep their copies: origin-backed replies expire with their freshness, file-backed ones live until their cache evicts them.",
  security: bearerSecurity,
  middleware: [requireScope("images")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: purgeBody } } } },
  responses: {
    200: jsonContent(purgeCountsSchema, "What was dropped"),
    ...problemResponses("validation_failed", "not_found", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const body = c.req.valid("json");
  if ("files" in body) return c.json(await purgeFiles(c.env, accountId, body.files), 200);
  const origin = await findOrigin(c.env, accountId, body.origin);
  const which = "paths" in body ? { paths: body.paths } : { prefix: body.prefix };
  return c.json(await (body.revalidate ? revalidateOrigin : purgeOrigin)(c.env, origin, which), 200);
};
