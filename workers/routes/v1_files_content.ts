import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { problemCatalogue, ProblemError, type ProblemType } from "../../contracts/problems/catalogue.ts";
import { contentRange } from "../files/byte-range.ts";
import { attachmentDisposition } from "../files/content-disposition.ts";
import { checkDownloadSignature } from "../files/download-signature.ts";
import { reportedFileOwner } from "../files/d1-files.ts";
import { openFile } from "../files/file-store.ts";
import { fileIdParam } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { countInWindow, perMinuteLimit } from "../rate-limit/fixed-window.ts";

// This path takes no API key (the signature is the credential), so its documented problems are
// its own and not the authenticated set that problemResponses adds.
function problem(slug: ProblemType) {
  return {
    description: `\`${slug}\`: ${problemCatalogue[slug].description}`,
    content: { "application/problem+json": { schema: problemSchema } },
  };
}

const bytes = { schema: z.string().openapi({ type: "string", format: "binary" }) };

export const route = createRoute({
  method: "get",
  path: "/v1/files/{file_id}/content",
  tags: ["Files"],
  summary: "Download a file through its signed URL",
  description:
    "No API key: `expires` and `sig` from `download_url` are the credential, so the link can go in an email or an `<a href>`. Serves the stored Content-Type with `Content-Disposition: attachment`, an ETag, and single byte ranges (`Range: bytes=0-1023` gives 206 with Content-Range). HEAD works too.",
  security: [],
  request: {
    params: fileIdParam,
    query: z.object({
      account: z
        .string()
        .regex(/^acct_[A-Za-z0-9_-]{1,60}$/)
        .optional()
        .openapi({ description: "The file's account, which the signature covers too. Links signed before it was added have none and still work.", example: "acct_4Fh8Kq2ZpW9tLm3Xc7Vd" }),
      expires: z.string().max(12).openapi({ description: "Unix seconds after which the link stops working.", example: "1795514400" }),
      sig: z.string().max(64).openapi({ description: "base64url HMAC-SHA256 over `<file_id>.<expires>.<account>` (`<file_id>.<expires>` without `account`).", example: "3q2-7wAbC..." }),
    }),
  },
  responses: {
    // The file's stored Content-Type (image/webp, application/pdf, ...), whatever it is.
    200: { description: "The whole file, with its stored Content-Type", content: { "*/*": bytes } },
    206: { description: "The requested byte range, with the file's stored Content-Type", content: { "*/*": bytes } },
    400: problem("validation_failed"),
    403: problem("download_link_invalid"),
    404: problem("not_found"),
    409: problem("upload_incomplete"),
    410: problem("gone"),
    416: problem("range_not_satisfiable"),
    429: problem("rate_limited"),
    500: problem("internal_error"),
  },
});

/**
 * This path skips the API gate, so the per-key limit never sees it: downloads are counted per
 * client address (before the signature is checked, so guessing signatures is bounded too) and per
 * file (once the link is valid, so bad links cannot use up a file's downloads), each at the
 * configured requests per minute. A link holder can neither drain the service for the owner nor
 * fetch one leaked link without end.
 */
async function limitDownloads(env: AppEnv["Bindings"], subject: { address: string } | { fileId: string }): Promise<void> {
  const limit = perMinuteLimit(env.RATE_LIMIT_PER_MINUTE);
  const rule =
    "address" in subject
      ? { subject: `download-address:${subject.address}`, policy: "per-address", exceeded: `This address may make ${limit} downloads per minute.` }
      : { subject: `download-file:${subject.fileId}`, policy: "per-file", exceeded: `This file may be downloaded ${limit} times per minute.` };
  await countInWindow(env.RATE_WINDOWS, { ...rule, limit });
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { file_id } = c.req.valid("param");
  const { account, expires, sig } = c.req.valid("query");
  // Cloudflare sets CF-Connecting-IP on every request it forwards; without it (local dev) all share one window.
  await limitDownloads(c.env, { address: c.req.header("CF-Connecting-IP") ?? "unknown" });
  const check = await checkDownloadSignature(c.env.SIGNING_SECRET, { fileId: file_id, accountId: account ?? null, expires, sig });
  if (check === "invalid") throw new ProblemError("download_link_invalid", "This download link's signature does not match it.");
  if (check === "expired") {
    throw new ProblemError(
      "download_link_invalid",
      `This download link expired at ${new Date(Number(expires) * 1000).toISOString()}; GET /v1/files/${file_id} signs a fresh one.`,
    );
  }

  await limitDownloads(c.env, { fileId: file_id });
  const owner = account ?? (await reportedFileOwner(c.env.DB, file_id));
  if (owner === null) throw new ProblemError("not_found", `No file ${file_id}.`);
  const { record, object, range } = await openFile(c.env, owner, file_id, c.req.header("Range"));
  const headers: Record<string, string> = {
    "Content-Type": record.content_type,
    "Content-Length": String(range ? range.length : object.size),
    "Content-Disposition": attachmentDisposition(record.filename ?? record.id),
    ETag: object.httpEtag,
    "Accept-Ranges": "bytes",
    // The link must stop working the moment the file is acknowledged, so no cache may keep a copy.
    "Cache-Control": "private, no-store",
    // Uploaded bytes are the customer's, of any declared type: never let a browser render them here.
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  if (range) headers["Content-Range"] = contentRange(range, object.size);
  return new Response(object.body, { status: range ? 206 : 200, headers });
};
