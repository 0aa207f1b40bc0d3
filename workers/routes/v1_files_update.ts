import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { checkDurableAdmission } from "../files/durable-admission.ts";
import { expiresAtField, resolveExpiry } from "../files/expires-at.ts";
import { findFile, retentionFor, setFileExpiry } from "../files/file-store.ts";
import { sawFile } from "../files/recent-files.ts";
import { fileIdParam, fileSchema, fileView } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

const updateFileBody = z.object({ expires_at: expiresAtField }).strict().openapi("UpdateFileRequest", { example: { expires_at: null } });

export const route = createRoute({
  method: "patch",
  path: "/v1/files/{file_id}",
  tags: ["Files"],
  summary: "Make a file durable, or give it an end",
  description:
    "`{\"expires_at\": null}` keeps the file until it is deleted (within the plan's durable storage quota: 413 `storage_quota_exceeded`; refused with 402 `storage_charge_owed` while storage is owed; the file is unchanged either way). A time sets its end, at most the account's retention from now. Another account's file is a 404; a deleted or expired one a 410.",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { params: fileIdParam, body: { required: true, content: { "application/json": { schema: updateFileBody } } } },
  responses: {
    200: jsonContent(fileSchema, "The file with its new expiry"),
    ...problemResponses("validation_failed", "not_found", "gone", "storage_quota_exceeded", "storage_charge_owed"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId, plan } = c.get("caller");
  const { file_id: fileId } = c.req.valid("param");
  const body = c.req.valid("json");
  const now = Date.now();
  const current = await findFile(c.env, accountId, fileId, now);
  const expiresAt = resolveExpiry(body.expires_at, now, await retentionFor(c.env.DB, accountId));
  const updated = (await setFileExpiry(c.env, accountId, fileId, expiresAt)) ?? (await findFile(c.env, accountId, fileId));
  if (expiresAt === null && current.expires_at !== null) {
    // Admitted after the change, like a new durable file, so racing changes cannot pass the quota together.
    try {
      await checkDurableAdmission(c.env, accountId, plan, current.size_bytes);
    } catch (error) {
      sawFile(accountId, fileId, await setFileExpiry(c.env, accountId, fileId, current.expires_at));
      throw error;
    }
  }
  // This isolate's transforms see the new expiry at once (others within the memo's 10 s).
  sawFile(accountId, fileId, updated);
  return c.json(await fileView(updated, c.env, c.req.url), 200);
};
