import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { imagePlaceholderEndpoint, imagePlaceholderSchema } from "../../contracts/origin/image-placeholder.ts";
import { fileIdParam } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { originCompute } from "../origin/origin-client.ts";
import { resolveSource, sourceBody } from "../sources/resolve-source.ts";

export const route = createRoute({
  method: "get",
  path: "/v1/files/{file_id}/placeholder",
  tags: ["Files"],
  summary: "A stored image's placeholder: ThumbHash, BlurHash, dominant colour and a tiny WebP (free)",
  description:
    "Computed from the upright sRGB image: `lqip` is a data URL ready for `placeholder=\"blur\"` / `blurDataURL`, `width` and `height` are the image's own so the page reserves its box. Always $0 for a file in your account. Another account's file is a 404; a file that is not an image is a 415.",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { params: fileIdParam },
  responses: {
    200: jsonContent(imagePlaceholderSchema, "The placeholder"),
    ...problemResponses("not_found", "gone", "payload_too_large", "unsupported_media_type", "image_too_large", "image_unreadable", "origin_unavailable"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { file_id } = c.req.valid("param");
  const { accountId } = c.get("caller");
  const source = await resolveSource(c.env, accountId, { file_id }, "image", IMAGE_SOURCE_MAX_BYTES);
  const frame = await originCompute(c.env, imagePlaceholderEndpoint, { body: await sourceBody(source), options: {}, requestId: c.get("requestId"), accountId });
  // The payload is empty, but its end is where the reply's length and digest are checked.
  await frame.payload.pipeTo(new WritableStream());
  return c.json(frame.meta, 200);
};
