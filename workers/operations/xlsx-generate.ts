import { z } from "@hono/zod-openapi";
import { billingSchema } from "../../contracts/envelope.ts";
import { xlsxPrice } from "../../contracts/pricing.ts";
import type { XlsxRequest } from "../../contracts/xlsx-request.ts";
import type { Bindings } from "../env.ts";
import { originCompute } from "../origin/origin-client.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";

const XLSX_GENERATE_PATH = "/xlsx/generate";
export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const xlsxResultSchema = deliveredOutputSchema
  .extend({
    filename: z.string().openapi({ example: "report.xlsx" }),
    stats: z.object({
      sheets: z.number().int(),
      rows: z.number().int(),
      cells: z.number().int().openapi({ description: "Header and data rows times columns, plus explicit cells: what is billed" }),
      output_bytes: z.number().int(),
    }),
    billing: billingSchema,
  })
  .openapi("XlsxResult");

export type XlsxResult = z.infer<typeof xlsxResultSchema>;

interface OriginXlsxMeta {
  stats: { sheets: number; rows: number; cells: number; bytes: number };
}

type XlsxEnv = Pick<Bindings, "DB" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

/** One workbook built by the origin's streaming writer, stored and billed by its cell count. */
export async function generateWorkbook(
  env: XlsxEnv,
  request: { accountId: string; workbook: XlsxRequest; chargeKey: string; baseUrl: string },
): Promise<XlsxResult> {
  const frame = await originCompute<OriginXlsxMeta>(env, XLSX_GENERATE_PATH, {
    body: JSON.stringify(request.workbook),
    contentType: "application/json",
    options: {},
  });
  const { stats } = frame.meta;
  const price = xlsxPrice(stats.cells);
  const delivered = await deliverOutput(
    env,
    { body: frame.payload, size: stats.bytes, contentType: XLSX_CONTENT_TYPE, filename: request.workbook.filename },
    request.workbook.output,
    request.baseUrl,
    { accountId: request.accountId, chargeKey: request.chargeKey, operation: "xlsx.generate", amountMicros: price },
  );
  return {
    ...delivered,
    filename: request.workbook.filename,
    stats: { sheets: stats.sheets, rows: stats.rows, cells: stats.cells, output_bytes: stats.bytes },
    billing: { charged_micros: price },
  };
}
