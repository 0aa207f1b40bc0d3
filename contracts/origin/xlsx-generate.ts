// The edge-to-origin contract for /v1/xlsx/generate: the workbook request as JSON in, the .xlsx
// out, with these stats framed in front. They are the public XlsxStats as they are.
import { z } from "@hono/zod-openapi";
import { xlsxRequestSchema } from "../xlsx-request.ts";

export const XLSX_GENERATE_PATH = "/xlsx/generate";
export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const xlsxStatsSchema = z
  .object({
    sheets: z.number().int(),
    rows: z.number().int().openapi({ description: "Header and data rows over all sheets" }),
    cells: z.number().int().openapi({ description: "Header and data rows times columns, plus explicit cells: what is billed" }),
    output_bytes: z.number().int(),
  })
  .openapi("XlsxStats", { description: "A workbook has no input file, so `original_bytes` and `ratio` do not apply" });

export const xlsxGenerateReplySchema = z.object({ stats: xlsxStatsSchema });

// The request travels as the JSON body, not in the options header.
export const xlsxGenerateEndpoint = { path: XLSX_GENERATE_PATH, body: xlsxRequestSchema, reply: xlsxGenerateReplySchema } as const;

export type XlsxStats = z.infer<typeof xlsxStatsSchema>;
