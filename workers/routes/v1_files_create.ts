import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { sourceSchema } from "../../contracts/envelope.ts";
import { checkDurableAdmission } from "../files/durable-admission.ts";
import { expiresAtField, resolveExpiry } from "../files/expires-at.ts";
import { retentionFor, storeFile } from "../files/file-store.ts";
import { fileSchema, fileView } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { resolveSource, sourceBody } from "../sources/resolve-source.ts";
import { MAX_UPLOAD_BYTES } from "../uploads/upload-limits.ts";

const createFileBody = z
  .object({ source: sourceSchema, expires_at: expiresAtField.optional() })
  .strict()
  .openapi("CreateFileRequest", { example: { source: { url: "https://images.example.com/hero.jpg" }, expires_at: null } });

export const route = createRoute({
  method: "post",
  path: "/v1/files",
  tags: ["Files"],
  summary: "Store a file, durable or expiring",
  description:
    "Stores the `source` (`{url}`, `{base64}`, or `{file_id}` to copy a file of the account) as a file usable as `{\"file_id\": ...}` in any call and in transform URLs. Identified by magic bytes: JPEG, PNG, WebP, AVIF, GIF and TIFF images and PDF files. `expires_at: null` keeps it until it is deleted: a processing call never deletes it (`keep_source` does not apply), it counts against the plan's durable storage quota (413 `storage_quota_exceeded` past it, nothing stored) and is charged daily by size (see the price list); while a day's storage charge is owed, new durable files are refused with 402 `storage_charge_owed`. Omitted, the file expires with the account's retention. `Idempotency-Key` is honoured.",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: createFileBody } } } },
  responses: {
    201: jsonContent(fileSchema, "The stored file"),
    ...problemResponses(
      "validation_failed",
      "not_found",
      "gone",
      "upload_incomplete",
      "payload_too_large",
      "unsupported_media_type",
      "source_invalid_url",
      "source_forbidden_address",
      "source_unreachable",
      "source_too_large",
      "storage_quota_exceeded",
      "storage_charge_owed",
      "idempotency_key_reused",
      "idempotency_conflict",
    ),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId, plan } = c.get("caller");
  const body = c.req.valid("json");
  const expiresAt = resolveExpiry(body.expires_at, Date.now(), await retentionFor(c.env.DB, accountId));
  const source = await resolveSource(c.env, accountId, body.source, "stored", MAX_UPLOAD_BYTES);
  const record = await storeFile(c.env, {
    accountId,
    kind: "source",
    body: await sourceBody(source),
    size: source.size,
    contentType: source.type.mime,
    filename: source.filename,
    expiresAt,
    ...(expiresAt === null ? { admit: (pending) => checkDurableAdmission(c.env, accountId, plan, pending.size_bytes) } : {}),
  });
  return c.json(await fileView(record, c.env, c.req.url), 201);
};
