import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { findFile } from "../files/file-store.ts";
import { fileIdParam, fileSchema, fileView } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

export const route = createRoute({
  method: "get",
  path: "/v1/files/{file_id}",
  tags: ["Files"],
  summary: "A file's metadata and a fresh signed download URL",
  description: "Another account's file is a 404; a deleted or expired file is a 410.",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { params: fileIdParam },
  responses: {
    200: jsonContent(fileSchema, "The file"),
    ...problemResponses("not_found", "gone"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const record = await findFile(c.env, c.get("caller").accountId, c.req.valid("param").file_id);
  return c.json(await fileView(record, c.env, c.req.url), 200);
};
