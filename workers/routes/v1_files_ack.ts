import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { deleteFile } from "../files/file-lifecycle.ts";
import { fileIdParam, fileSchema, fileView } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

export const route = createRoute({
  method: "post",
  path: "/v1/files/{file_id}/ack",
  tags: ["Files"],
  summary: "Acknowledge a file: delete it now",
  description:
    "Deletes the file immediately instead of at its expiry: the stored object is removed and its signed download URLs answer 410 from now on. Acknowledging again (or after expiry) returns 200 with the deleted file. Another account's file is a 404.",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { headers: idempotencyHeaders, params: fileIdParam },
  responses: {
    200: jsonContent(fileSchema, "The deleted file"),
    ...problemResponses("not_found", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const record = await deleteFile(c.env, c.get("caller").accountId, c.req.valid("param").file_id);
  return c.json(await fileView(record, c.env, c.req.url), 200);
};
