import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { decodeFileCursor, encodeFileCursor } from "../files/file-cursor.ts";
import { listFiles } from "../files/file-store.ts";
import { fileSchema, fileView } from "../files/file-view.ts";
import type { AppEnv } from "../hono-env.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

const MAX_LIMIT = 100;

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(20).openapi({ description: `Files per page, 1 to ${MAX_LIMIT}.`, example: 20 }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return null;
      const cursor = decodeFileCursor(text);
      if (!cursor) ctx.addIssue({ code: "custom", message: "Not a cursor from this list: pass `next_cursor` back unchanged." });
      return cursor;
    })
    .openapi({ description: "`next_cursor` of the previous page; omit it for the first.", type: "string" }),
});

const fileListSchema = z
  .object({
    data: z.array(fileSchema),
    next_cursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last page." }),
  })
  .openapi("FileList");

export const route = createRoute({
  method: "get",
  path: "/v1/files",
  tags: ["Files"],
  summary: "List the account's files, newest first",
  description:
    "Live files (not deleted, not expired), newest first, `limit` at a time. The cursor is opaque and stable: files stored after the first page was read do not shift the pages after it (they appear at the head of a new listing).",
  security: bearerSecurity,
  middleware: [requireScope("files")] as const,
  request: { query: listQuery },
  responses: { 200: jsonContent(fileListSchema, "A page of files"), ...problemResponses("validation_failed") },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  // One more than a page tells whether another page follows without a second query.
  const rows = await listFiles(c.env, c.get("caller").accountId, { limit: limit + 1, after: cursor });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return c.json(
    {
      data: await Promise.all(page.map((record) => fileView(record, c.env, c.req.url))),
      next_cursor: rows.length > limit && last ? encodeFileCursor({ createdAt: last.created_at, id: last.id }) : null,
    },
    200,
  );
};
