import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { requestChargeKey } from "../billing/charge-key.ts";
import { requireBalance } from "../billing/charge-once.ts";
import { jobAcceptedSchema, modeSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { xlsxPrice } from "../../contracts/pricing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { assertXlsxWritable, countCells, XLSX_SYNC_CELL_LIMIT, xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { storeFile } from "../files/file-store.ts";
import type { AppEnv } from "../hono-env.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { xlsxJobRequestSchema } from "../operations/xlsx-generate-job.ts";
import { generateWorkbook, xlsxResultSchema } from "../operations/xlsx-generate.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";

const generateBody = xlsxRequestSchema
  .extend({ mode: modeSchema, webhook: webhookTargetSchema.optional() })
  .openapi("XlsxGenerateRequest", {
    example: {
      filename: "report.xlsx",
      timezone: "Europe/Berlin",
      styles: { hdr: { bold: true, fill: "#F2F2F2" } },
      sheets: [
        {
          name: "Invoices",
          freeze: { rows: 1 },
          autofilter: true,
          header_style: "hdr",
          columns: [
            { key: "co", header: "Company", type: "string", width: 24 },
            { key: "total", header: "Total", type: "number" },
            { key: "issued", header: "Issued", type: "date", format: "yyyy-mm-dd" },
          ],
          rows: [["Acme", 1500.5, "2026-11-01"]],
        },
      ],
    },
  });


export const route = createRoute({
  method: "post",
  path: "/v1/xlsx/generate",
  tags: ["Spreadsheets"],
  summary: "Build an .xlsx workbook from JSON",
  description: `Typed columns, named styles, merges, freeze panes, autofilter, hyperlinks, explicit formulas (a string starting with \`=\` stays text), data validation and conditional formatting. $0.005 per file plus $0.00002 per 1,000 cells, rounded up to the micro. Synchronous up to ${XLSX_SYNC_CELL_LIMIT} cells; larger workbooks need \`mode: async\`.`,
  security: bearerSecurity,
  middleware: [requireScope("xlsx")] as const,
  request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: generateBody } } } },
  responses: {
    200: jsonContent(xlsxResultSchema, "The workbook"),
    202: jsonContent(jobAcceptedSchema, "Accepted as an async job"),
    ...problemResponses("validation_failed", "insufficient_balance", "payload_too_large", "unprocessable", "idempotency_key_reused", "idempotency_conflict", "origin_unavailable"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const caller = c.get("caller");
  const { mode, webhook, ...workbook } = c.req.valid("json");
  if (webhook) checkWebhookUrl(c.env, webhook.url, "/webhook/url");
  assertXlsxWritable(workbook);
  const cells = countCells(workbook);
  await requireBalance(c.env.DB, caller.accountId, xlsxPrice(cells));
  const baseUrl = publicBaseUrl(c.env, c.req.url);
  if (mode === "async") {
    const json = new TextEncoder().encode(JSON.stringify(workbook));
    const stashed = await storeFile(c.env, {
      accountId: caller.accountId,
      kind: "source",
      body: json,
      size: json.length,
      contentType: "application/json",
      filename: `${workbook.filename}.json`,
    });
    const request: z.infer<typeof xlsxJobRequestSchema> = { request_file_id: stashed.id, base_url: baseUrl };
    return c.json(await submitJob(c.env, caller, { operation: "xlsx.generate", request, webhook }), 202);
  }
  if (cells > XLSX_SYNC_CELL_LIMIT) {
    throw new ProblemError("payload_too_large", `This workbook has ${cells} cells; synchronous calls take up to ${XLSX_SYNC_CELL_LIMIT}. Use mode: async.`, {
      extensions: { cells, sync_cell_limit: XLSX_SYNC_CELL_LIMIT },
    });
  }
  const result = await generateWorkbook(c.env, { accountId: caller.accountId, workbook, chargeKey: requestChargeKey(c.get("requestId")), baseUrl, requestId: c.get("requestId") });
  return c.json(result, 200);
};
