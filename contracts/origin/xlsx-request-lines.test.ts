import { describe, expect, it } from "vitest";
import { xlsxRequestSchema } from "../xlsx-request.ts";
import { parseXlsxRequestLines, XLSX_ROWS_PER_LINE, xlsxRequestLines } from "./xlsx-request-lines.ts";

const request = xlsxRequestSchema.parse({
  sheets: [
    { name: "A", columns: [{ key: "t" }, { key: "n", type: "number" }], rows: [["line\nbreak \u2028 ünï", 1], { t: "object", n: 2 }, [null, null]] },
    { name: "Empty", columns: [{ key: "x" }] },
    { name: "B", columns: [{ key: "x" }], rows: [["last"]] },
  ],
});

describe("xlsx request lines", () => {
  it("puts the rows on lines of their own after the head, and reads back the request it was written from", () => {
    const lines = xlsxRequestLines(request);
    expect(lines.split("\n")).toHaveLength(1 + 2 + 1);
    const head = JSON.parse(lines.slice(0, lines.indexOf("\n"))) as { sheets: { rows: unknown }[] };
    expect(head.sheets.map((sheet) => sheet.rows)).toEqual([3, 0, 1]);
    expect(xlsxRequestSchema.parse(parseXlsxRequestLines(lines))).toEqual(request);
  });

  it("reads a request stored as one JSON document, and refuses lines whose rows do not add up", () => {
    expect(xlsxRequestSchema.parse(parseXlsxRequestLines(JSON.stringify(request)))).toEqual(request);
    const lines = xlsxRequestLines(request);
    expect(() => parseXlsxRequestLines(`${lines}[["extra"]]\n`)).toThrow(/4 rows; 5 follow/);
    expect(() => parseXlsxRequestLines(lines.slice(0, -1))).toThrow(/cut short/);
    expect(() => parseXlsxRequestLines(`${lines}{}\n`)).toThrow(/not an array/);
    const long = xlsxRequestSchema.parse({ sheets: [{ name: "L", columns: [{ key: "n", type: "integer" }], rows: Array.from({ length: XLSX_ROWS_PER_LINE * 2 + 1 }, (_, i) => [i]) }] });
    expect(xlsxRequestLines(long).split("\n")).toHaveLength(1 + 3 + 1);
    expect(xlsxRequestSchema.parse(parseXlsxRequestLines(xlsxRequestLines(long)))).toEqual(long);
  });
});
