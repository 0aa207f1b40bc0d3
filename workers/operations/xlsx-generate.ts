// POST /v1/xlsx/generate: a workbook built by the origin's streaming writer from JSON.
import { z } from "@hono/zod-openapi";
import { billingSchema, modeSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { xlsxPrice } from "../../contracts/pricing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { xlsxFeatureTableMarkdown } from "../../contracts/xlsx-feature-table.ts";
import { assertXlsxWritable, countCells, XLSX_SYNC_CELL_LIMIT, xlsxRequestSchema, type XlsxRequest } from "../../contracts/xlsx-request.ts";
import { XLSX_CONTENT_TYPE, xlsxGenerateEndpoint, xlsxStatsSchema } from "../../contracts/origin/xlsx-generate.ts";
import { parseXlsxRequestLines, XLSX_REQUEST_LINES_CONTENT_TYPE, xlsxRequestLines } from "../../contracts/origin/xlsx-request-lines.ts";
import { jobChargeKey } from "../billing/charge-key.ts";
import type { Bindings } from "../env.ts";
import { deleteFile } from "../files/file-lifecycle.ts";
import { openFile, storeFile } from "../files/file-store.ts";
import { originCompute } from "../origin/origin-client.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";
import { inlineImageSources } from "./xlsx-image-sources.ts";
import type { PlannedOperation } from "./operation.ts";

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

type GenerateBody = z.output<typeof generateBody>;

/** A workbook checked for what the writer cannot write, with its cell count (the price's unit). */
interface PlannedWorkbook {
  workbook: XlsxRequest;
  cells: number;
}

export const xlsxResultSchema = deliveredOutputSchema
  .extend({
    filename: z.string().openapi({ example: "report.xlsx" }),
    stats: xlsxStatsSchema,
    billing: billingSchema,
  })
  .openapi("XlsxResult");

export type XlsxResult = z.infer<typeof xlsxResultSchema>;

type XlsxEnv = Pick<Bindings, "DB" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "FILES" | "SIGNING_SECRET" | "PUBLIC_BASE_URL" | "ORIGIN_URL" | "ORIGIN_SECRET" | "ALLOW_LOOPBACK_URLS" | "CF_ZONE_ID" | "CF_API_TOKEN" | "CF_API_BASE_URL">;

/**
 * One workbook built by the origin's streaming writer, stored and billed by its cell count.
 * `serialised` is the checked workbook as the origin reads it (xlsxRequestLines) when the caller
 * holds it already (a job's stored request): sent as it is unless pictures had to be inlined.
 */
async function generateWorkbook(
  env: XlsxEnv,
  request: { accountId: string; workbook: XlsxRequest; serialised?: string; chargeKey: string; baseUrl: string; requestId?: string },
): Promise<XlsxResult> {
  const workbook = await inlineImageSources(env, request.accountId, request.workbook);
  const frame = await originCompute(env, xlsxGenerateEndpoint, {
    body: workbook === request.workbook && request.serialised !== undefined ? request.serialised : xlsxRequestLines(workbook),
    contentType: XLSX_REQUEST_LINES_CONTENT_TYPE,
    options: {},
    requestId: request.requestId,
    accountId: request.accountId,
  });
  const { stats } = frame.meta;
  const price = xlsxPrice(stats.cells);
  const delivered = await deliverOutput(
    env,
    { body: frame.payload, size: stats.output_bytes, contentType: XLSX_CONTENT_TYPE, filename: request.workbook.filename },
    request.workbook.output,
    request.baseUrl,
    { accountId: request.accountId, chargeKey: request.chargeKey, operation: "xlsx.generate", amountMicros: price },
  );
  return {
    ...delivered,
    filename: request.workbook.filename,
    stats,
    billing: { charged_micros: price },
  };
}

/** An xlsx.generate job's stored request: the workbook JSON is a file, since it may be large. */
const xlsxJobRequestSchema = z.object({ request_file_id: z.string(), base_url: z.string() });

function planWorkbook({ mode: _mode, webhook: _webhook, ...workbook }: GenerateBody): PlannedWorkbook {
  assertXlsxWritable(workbook);
  return { workbook, cells: countCells(workbook) };
}

export const xlsxGenerate = {
  name: "xlsx.generate",
  http: {
    path: "/v1/xlsx/generate",
    tags: ["Spreadsheets"],
    summary: "Build an .xlsx workbook from JSON",
    description: `A workbook written by the origin's own streaming SpreadsheetML writer. Everything is checked before any work or charge: a malformed or inconsistent field is a 400 \`validation_failed\`, what Excel cannot hold a 422 \`xlsx_limits\`, each with its JSON pointer. $0.005 per file plus $0.00002 per 1,000 cells, rounded up to the micro. Synchronous up to ${XLSX_SYNC_CELL_LIMIT} cells; larger workbooks need \`mode: async\`.\n\n${xlsxFeatureTableMarkdown()}`,
    resultDescription: "The workbook",
    problems: [
      "validation_failed",
      "insufficient_balance",
      "payload_too_large",
      "unprocessable",
      "xlsx_limits",
      // A picture by file_id or url that cannot be read.
      "not_found",
      "gone",
      "upload_incomplete",
      "unsupported_media_type",
      "source_invalid_url",
      "source_forbidden_address",
      "source_unreachable",
      "source_too_large",
      "idempotency_key_reused",
      "idempotency_conflict",
      "origin_unavailable",
    ],
  },
  requestSchema: generateBody,
  resultSchema: xlsxResultSchema,
  input: "plan",
  plan: planWorkbook,
  balanceCeiling: ({ cells }) => xlsxPrice(cells),
  runSync(env, { accountId, input, baseUrl, chargeKey, requestId }) {
    if (input.cells > XLSX_SYNC_CELL_LIMIT) {
      throw new ProblemError("payload_too_large", `This workbook has ${input.cells} cells; synchronous calls take up to ${XLSX_SYNC_CELL_LIMIT}. Use mode: async.`, {
        extensions: { cells: input.cells, sync_cell_limit: XLSX_SYNC_CELL_LIMIT },
      });
    }
    return generateWorkbook(env, { accountId, workbook: input.workbook, chargeKey, baseUrl, requestId });
  },
  job: {
    requestSchema: xlsxJobRequestSchema,
    viewName: "XlsxGenerateJob",
    progressUnit: "stages",
    async request(env, { accountId, input, baseUrl }) {
      const lines = new TextEncoder().encode(xlsxRequestLines(input.workbook));
      const stashed = await storeFile(env, {
        accountId,
        kind: "source",
        body: lines,
        size: lines.length,
        contentType: XLSX_REQUEST_LINES_CONTENT_TYPE,
        filename: `${input.workbook.filename}.lines`,
      });
      return { request_file_id: stashed.id, base_url: baseUrl };
    },
    /** Two stages: the stored workbook read, then the origin's writing with its output stored and billed. */
    async run(env, { job, request }, progress) {
      await progress.start(2);
      const opened = await openFile(env, job.account_id, request.request_file_id);
      // Parsed by the schema like any stored reply; its text goes on to the origin as it is.
      const serialised = await opened.object.text();
      const workbook = xlsxRequestSchema.parse(parseXlsxRequestLines(serialised));
      await progress.advance();
      const result = await generateWorkbook(env, { accountId: job.account_id, workbook, serialised, chargeKey: jobChargeKey(job.id), baseUrl: request.base_url, requestId: job.id });
      await deleteFile(env, job.account_id, request.request_file_id);
      return result;
    },
  },
} satisfies PlannedOperation<"xlsx.generate", GenerateBody, PlannedWorkbook, typeof xlsxResultSchema, typeof xlsxJobRequestSchema>;
