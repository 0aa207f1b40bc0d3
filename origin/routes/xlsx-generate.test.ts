import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { CONTENT_DIGEST_HEADER, ORIGIN_SECRET_HEADER, readFrame } from "../../contracts/origin/framing.ts";
import { xlsxGenerateEndpoint } from "../../contracts/origin/xlsx-generate.ts";
import { XLSX_REQUEST_LINES_CONTENT_TYPE, xlsxRequestLines } from "../../contracts/origin/xlsx-request-lines.ts";
import { xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { createOriginApp } from "../app.ts";

const app = createOriginApp({ secret: "s" });

function post(body: string) {
  return app.request(xlsxGenerateEndpoint.path, { method: "POST", body, headers: { [ORIGIN_SECRET_HEADER]: "s", "Content-Type": XLSX_REQUEST_LINES_CONTENT_TYPE } });
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => [`row ${i}`, i]);
const request = (values: unknown[][]) => xlsxRequestSchema.parse({ sheets: [{ name: "S", columns: [{ key: "a", header: "A" }, { key: "b", header: "B", type: "number" }], rows: values }] });

describe("POST /xlsx/generate", () => {
  it("answers the workbook written from the edge's lines, framed behind its stats and digested whole", async () => {
    const res = await post(xlsxRequestLines(request(rows(20_000))));
    expect(res.status).toBe(200);
    const frame = await readFrame(res.body!, (meta) => xlsxGenerateEndpoint.reply.parse(meta), { length: Number(res.headers.get("Content-Length")), digest: res.headers.get(CONTENT_DIGEST_HEADER) });
    const workbook = new Uint8Array(await new Response(frame.payload).arrayBuffer());
    expect(frame.meta.stats).toEqual({ sheets: 1, rows: 20_001, cells: 40_002, output_bytes: workbook.length });
    const sheet = XLSX.read(workbook, { type: "array" }).Sheets.S!;
    expect(XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 })[20_000]).toEqual(["row 19999", 19_999]);
  });

  it("answers a bad cell deep in the body with a 400 problem and its pointer, not a workbook", async () => {
    const values = rows(20_000);
    values[19_990] = ["fine", "twelve"];
    const res = await post(xlsxRequestLines(request(values)));
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { type: string; errors: { pointer: string }[] };
    expect(problem.type).toMatch(/validation_failed$/);
    expect(problem.errors.map((e) => e.pointer)).toEqual(["/sheets/0/rows/19990/1"]);
  });
});
