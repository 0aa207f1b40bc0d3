import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { checkDurableAdmission } from "../files/durable-admission.ts";
import { expiresAtField, resolveExpiry } from "../files/expires-at.ts";
import { insertPendingFile, markFileDeleted, retentionFor } from "../files/file-store.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { presignUpload } from "../uploads/presign-upload.ts";
import { uploadEndpoint } from "../uploads/upload-endpoint.ts";
import { MAX_UPLOAD_BYTES, PRESIGNED_UPLOAD_REQUIRED_ABOVE_BYTES, UPLOAD_URL_TTL_SECONDS } from "../uploads/upload-limits.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";

const MB = 1024 * 1024;

const createUploadBody = z
  .object({
    filename: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\p{Cc}/\\]+$/u, "A file name without path separators or control characters.")
      .optional()
      .openapi({ description: "Used as the download's file name.", example: "annual-report.pdf" }),
    content_type: z
      .string()
      .max(127)
      .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/, "A media type such as application/pdf, without parameters.")
      .transform((type) => type.toLowerCase())
      .openapi({ description: "Sent unchanged as the PUT's Content-Type (it is signed).", example: "application/pdf" }),
    size_bytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_UPLOAD_BYTES, `Uploads are limited to ${MAX_UPLOAD_BYTES / MB} MB (${MAX_UPLOAD_BYTES} bytes).`)
      .openapi({ description: "Exact byte length; sent as the PUT's Content-Length (it is signed).", example: 157_286_400 }),
    expires_at: expiresAtField.optional(),
  })
  .strict()
  .openapi("CreateUploadRequest");

const createdUploadSchema = z
  .object({
    file_id: z.string().openapi({ example: "file_8kT2bQ7xLw3mZr9Xc1Vd" }),
    status: z.literal("pending"),
    expires_at: z
      .string()
      .nullable()
      .openapi({ description: "When the file is deleted unless acknowledged earlier; null for a durable file (kept until deleted).", example: "2026-11-24T10:00:00.000Z" }),
    upload: z.object({
      method: z.literal("PUT"),
      url: z.string().openapi({
        example:
          "https://<account>.r2.cloudflarestorage.com/pixelpress-files/accounts/acct_.../file_...?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&...",
      }),
      headers: z
        .object({ "Content-Type": z.string(), "Content-Length": z.string() })
        .openapi({ description: "Send exactly these: a PUT with another length or type is refused (403)." }),
      expires_at: z.string().openapi({ example: "2026-11-23T10:15:00.000Z" }),
    }),
  })
  .openapi("CreatedUpload");

export const route = createRoute({
  method: "post",
  path: "/v1/uploads",
  tags: ["Files"],
  summary: "Start a presigned upload",
  description: `Returns a \`file_id\` and a presigned PUT to storage, valid for ${UPLOAD_URL_TTL_SECONDS / 60} minutes. \`expires_at\` as for POST /v1/files: \`null\` makes the file durable (its declared size is held against the plan's quota from now on; 413 \`storage_quota_exceeded\` past it, 402 \`storage_charge_owed\` while storage is owed, nothing created either way). PUT the bytes there with the given headers, then call POST /v1/uploads/{file_id}/complete; the file is then usable as \`{"file_id": ...}\` in any \`source\`. Files up to ${MAX_UPLOAD_BYTES / MB} MB (the platform maximum). Inputs above ${PRESIGNED_UPLOAD_REQUIRED_ABOVE_BYTES / MB} MB must come this way; smaller ones may (sync JSON bodies stop at 40 MB).`,
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: {
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: createUploadBody } } },
  },
  responses: {
    201: jsonContent(createdUploadSchema, "The pending file and where to PUT its bytes"),
    ...problemResponses(
      "validation_failed",
      "storage_quota_exceeded",
      "storage_charge_owed",
      "idempotency_key_reused",
      "idempotency_conflict",
      "dependency_unavailable",
    ),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId, plan } = c.get("caller");
  const body = c.req.valid("json");
  const endpoint = uploadEndpoint(c.env, publicBaseUrl(c.env, c.req.url));
  const now = Date.now();
  const expiresAt = resolveExpiry(body.expires_at, now, await retentionFor(c.env.DB, accountId));
  const record = await insertPendingFile(
    c.env,
    { accountId, kind: "source", contentType: body.content_type, sizeBytes: body.size_bytes, filename: body.filename, expiresAt },
    now,
  );
  if (expiresAt === null) {
    try {
      await checkDurableAdmission(c.env, accountId, plan, record.size_bytes);
    } catch (error) {
      // Its id was never given out: the row ends here, with no object ever written.
      await markFileDeleted(c.env, accountId, record.id, "deleted");
      throw error;
    }
  }
  const upload = await presignUpload(endpoint, record.r2_key, { contentType: record.content_type, sizeBytes: record.size_bytes }, now);
  return c.json(
    {
      file_id: record.id,
      status: "pending" as const,
      expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      upload: { method: upload.method, url: upload.url, headers: upload.headers, expires_at: new Date(upload.expiresAt).toISOString() },
    },
    201,
  );
};
