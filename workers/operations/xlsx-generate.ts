import { z } from "@hono/zod-openapi";
import { billingSchema } from "../../contracts/envelope.ts";
import { xlsxPrice } from "../../contracts/pricing.ts";
import type { XlsxRequest } from "../../contracts/xlsx-request.ts";
import { XLSX_CONTENT_TYPE, xlsxGenerateEndpoint, xlsxStatsSchema } from "../../contracts/origin/xlsx-generate.ts";
import type { Bindings } from "../env.ts";
import { originCompute } from "../origin/origin-client.ts";
import { deliverOutput, deliveredOutputSchema } from "./deliver-output.ts";


export const xlsxResultSchema = deliveredOutputSchema
  .extend({
    filename: z.string().openapi({ example: "report.xlsx" }),
    stats: xlsxStatsSchema,
    billing: billingSchema,
  })
  .openapi("XlsxResult");

export type XlsxResult = z.infer<typeof xlsxResultSchema>;

type XlsxEnv = Pick<Bindings, "DB" | "FILES" | "SIGNING_SECRET" | "ORIGIN_URL" | "ORIGIN_SECRET">;

/** One workbook built by the origin's streaming writer, stored and billed by its cell count. */
export async function generateWorkbook(
  env: XlsxEnv,
  request: { accountId: string; workbook: XlsxRequest; chargeKey: string; baseUrl: string; requestId?: string },
): Promise<XlsxResult> {
  const frame = await originCompute(env, xlsxGenerateEndpoint, {
    body: JSON.stringify(request.workbook),
    contentType: "application/json",
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
