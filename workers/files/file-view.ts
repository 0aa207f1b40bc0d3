import { z } from "@hono/zod-openapi";
import type { Bindings } from "../env.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";
import { signedDownloadUrl } from "./download-signature.ts";
import type { FileRecord } from "./file-store.ts";

export const fileIdParam = z.object({
  file_id: z.string().max(64).openapi({ example: "file_8kT2bQ7xLw3mZr9Xc1Vd" }),
});

export const fileSchema = z
  .object({
    file_id: z.string().openapi({ example: "file_8kT2bQ7xLw3mZr9Xc1Vd" }),
    kind: z.enum(["source", "result"]).openapi({ description: "`source`: uploaded or fetched input; `result`: an operation's output." }),
    status: z.enum(["pending", "ready", "deleted"]).openapi({
      description: "`pending`: an upload not completed yet; `ready`: usable as `{file_id}` and downloadable.",
    }),
    filename: z.string().nullable().openapi({ example: "scan.pdf" }),
    content_type: z.string().openapi({ example: "application/pdf" }),
    size_bytes: z.number().int().openapi({ example: 4_194_304 }),
    sha256: z.string().nullable().openapi({ description: "Hex SHA-256 of the bytes, when known." }),
    created_at: z.string().openapi({ example: "2026-11-23T10:00:00.000Z" }),
    expires_at: z.string().nullable().openapi({
      description:
        "After this the file is deleted and answers 410. Null: a durable file, kept until it is deleted (POST /v1/files/{file_id}/ack) and metered as storage. Results and uploads are kept for the account's retention (24 h by default) unless `expires_at` was given.",
      example: "2026-11-24T10:00:00.000Z",
    }),
    download_url: z.string().nullable().openapi({
      description:
        "A signed link to the bytes, usable without an API key (in an email or an `<a href>`) until `expires_at` (a durable file's, until the file is deleted); null unless the file is ready. POST /v1/files/{file_id}/ack revokes it at once.",
      example: "https://api.pixelpress.dev/v1/files/file_8kT2bQ7xLw3mZr9Xc1Vd/content?account=acct_4Fh8Kq2ZpW9tLm3Xc7Vd&expires=1795514400&sig=3q2-7w...",
    }),
  })
  .openapi("File");

export type FileView = z.infer<typeof fileSchema>;

type LinkEnv = Pick<Bindings, "SIGNING_SECRET" | "PUBLIC_BASE_URL" | "IMAGE_ALIAS_HOSTS" | "PDF_ALIAS_HOSTS">;

/**
 * The API's view of a file; a ready file gets a freshly signed download URL on the public base
 * URL. It takes the request's URL, not a base, so no caller can sign a link off the Host header.
 */
export async function fileView(record: FileRecord, env: LinkEnv, requestUrl: string): Promise<FileView> {
  const downloadUrl =
    record.status === "ready" ? await signedDownloadUrl(env.SIGNING_SECRET, publicBaseUrl(env, requestUrl), record) : null;
  return {
    file_id: record.id,
    kind: record.kind,
    status: record.status,
    filename: record.filename,
    content_type: record.content_type,
    size_bytes: record.size_bytes,
    sha256: record.sha256,
    created_at: new Date(record.created_at).toISOString(),
    expires_at: record.expires_at === null ? null : new Date(record.expires_at).toISOString(),
    download_url: downloadUrl,
  };
}
