import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { fileIdParam, fileSchema, fileView } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { completeUpload } from "../uploads/complete-upload.ts";

export const route = createRoute({
  method: "post",
  path: "/v1/uploads/{file_id}/complete",
  tags: ["Files"],
  summary: "Complete a presigned upload",
  description:
    "Checks that the object arrived with the declared size and type and marks the file ready: it is then usable as `{\"file_id\": ...}`. The bytes are checked by each endpoint that processes them. Completing again returns the same file. 409 while nothing (or something else) has been uploaded.",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { headers: idempotencyHeaders, params: fileIdParam },
  responses: {
    200: jsonContent(fileSchema, "The ready file"),
    ...problemResponses("not_found", "upload_incomplete", "gone", "idempotency_key_reused", "idempotency_conflict"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const record = await completeUpload(c.env, c.get("caller").accountId, c.req.valid("param").file_id);
  return c.json(await fileView(record, c.env, c.req.url), 200);
};
