import { describe, expect, it } from "vitest";
import { ProblemError } from "./problems/catalogue.ts";
import {
  EXCEL_MAX_CELL_CHARS,
  EXCEL_MAX_COLUMNS,
  EXCEL_MAX_ROWS,
  XLSX_MAX_REPORTED_ERRORS,
  assertXlsxWritable,
  columnLetters,
  countCells,
  findXlsxRequestErrors,
  hyperlinkTarget,
  parseA1Cell,
  parseA1Range,
  parseIsoDateTime,
  xlsxRequestSchema,
  type XlsxRequest,
} from "./xlsx-request.ts";

function request(sheet: Record<string, unknown> = {}, top: Record<string, unknown> = {}): XlsxRequest {
  return xlsxRequestSchema.parse({
    styles: { hdr: { bold: true } },
    sheets: [{ name: "Data", columns: [{ key: "a", header: "A" }, { key: "n", type: "number" }], ...sheet }],
    ...top,
  });
}

function pointers(errors: { pointer: string }[]): string[] {
  return errors.map((e) => e.pointer);
}

function thrown(fn: () => void): ProblemError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error("expected a ProblemError");
}

describe("xlsxRequestSchema", () => {
  it("applies the defaults", () => {
    const parsed = xlsxRequestSchema.parse({ sheets: [{ name: "S", columns: [{ key: "a" }] }] });
    expect(parsed).toMatchObject({ filename: "workbook.xlsx", timezone: "UTC", styles: {}, properties: {}, output: "url" });
    expect(parsed.sheets[0]).toMatchObject({ autofilter: false, rows: [], merges: [], cells: {}, data_validations: [], conditional_formats: [] });
    expect(parsed.sheets[0]!.columns[0]!.type).toBe("string");
  });

  it("accepts the example from the issue", () => {
    const parsed = xlsxRequestSchema.safeParse({
      filename: "report.xlsx",
      timezone: "Europe/Berlin",
      styles: { hdr: { bold: true, fill: "#F2F2F2" }, eur: { num_format: "#,##0.00 [$€-x-euro2]" } },
      sheets: [
        {
          name: "Invoices",
          freeze: { rows: 1 },
          autofilter: true,
          header_style: "hdr",
          columns: [
            { key: "co", header: "Company", type: "string", width: 24 },
            { key: "total", header: "Total", type: "number", style: "eur" },
            { key: "issued", header: "Issued", type: "date", format: "yyyy-mm-dd" },
            { key: "paid", type: "boolean" },
            { key: "site", type: "url" },
          ],
          rows: [["Acme", 1500.5, "2026-11-01", true, "https://example.com"]],
          merges: ["A1:B1"],
          cells: { B10: { formula: "SUM(B2:B9)" } },
        },
      ],
    });
    expect(parsed.success).toBe(true);
    expect(parsed.data && findXlsxRequestErrors(parsed.data)).toMatchObject({ invalidCount: 0, limitsCount: 0 });
  });

  it("rejects malformed shapes with 400-level schema errors", () => {
    const base = { sheets: [{ name: "S", columns: [{ key: "a" }] }] };
    const bad = [
      { ...base, timezone: "Mars/Olympus" },
      { ...base, extra: 1 },
      { ...base, filename: "../x.xlsx" },
      { ...base, filename: "x.csv" },
      { ...base, styles: { s: { fill: "red" } } },
      { ...base, styles: { s: { weight: "bold" } } },
      { sheets: [] },
      { sheets: [{ name: "S", columns: [] }] },
      { sheets: [{ name: "S", columns: [{ key: "a", type: "formula" }] }] },
      { sheets: [{ name: "S", columns: [{ key: "a" }], merges: ["A1-B2"] }] },
      { sheets: [{ name: "S", columns: [{ key: "a" }], cells: { a1: { value: 1 } } }] },
      { sheets: [{ name: "S", columns: [{ key: "a" }], cells: { A1: { formula: "1", value: 1 } } }] },
      { sheets: [{ name: "S", columns: [{ key: "a" }], rows: [[{ nested: true }]] }] },
    ];
    for (const input of bad) expect(xlsxRequestSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });
});

describe("Excel limits (422 xlsx_limits)", () => {
  it("checks sheet names: length, forbidden characters, apostrophes, uniqueness ignoring case", () => {
    const parsed = xlsxRequestSchema.parse({
      sheets: ["x".repeat(32), "a/b", "'quoted'", "Data", "DATA", "History"].map((name) => ({ name, columns: [{ key: "a" }] })),
    });
    const { limits } = findXlsxRequestErrors(parsed);
    expect(pointers(limits)).toEqual(["/sheets/0/name", "/sheets/1/name", "/sheets/2/name", "/sheets/4/name", "/sheets/5/name"]);
    expect(findXlsxRequestErrors(request({ name: "x".repeat(31) })).limitsCount).toBe(0);
  });

  // exceljs drops C0 controls and DEL from the XML it writes, and XML readers turn a raw tab or
  // line break in an attribute into a space: `x\u0000y` and `xy` were written as two sheets `xy`.
  it("refuses sheet names the writer or Excel would alter, so names stay as written and unique", () => {
    const names = ["x\u0000y", "xy", "tab\there", "line\nbreak", "del\u007f", "lone \ud800", "\ufffe", "ünïcödé 😀"];
    const parsed = xlsxRequestSchema.parse({ sheets: names.map((name) => ({ name, columns: [{ key: "a" }] })) });
    const { limits, invalid } = findXlsxRequestErrors(parsed);
    expect(pointers(limits)).toEqual(["/sheets/0/name", "/sheets/2/name", "/sheets/3/name", "/sheets/4/name", "/sheets/5/name", "/sheets/6/name"]);
    expect(limits[0]!.detail).toMatch(/character U\+0000/);
    expect(pointers(invalid)).toEqual([]);
  });

  it("allows 1,048,576 rows including the header and refuses one more", () => {
    const fits = request();
    fits.sheets[0]!.rows = new Array<XlsxRequest["sheets"][number]["rows"][number]>(EXCEL_MAX_ROWS - 1).fill([]);
    expect(findXlsxRequestErrors(fits).limitsCount).toBe(0);
    fits.sheets[0]!.rows.push([]);
    expect(pointers(findXlsxRequestErrors(fits).limits)).toEqual(["/sheets/0/rows"]);
  });

  it("allows 16,384 columns and refuses one more", () => {
    const columns = Array.from({ length: EXCEL_MAX_COLUMNS + 1 }, (_, i) => ({ key: `c${i}` }));
    expect(pointers(findXlsxRequestErrors(request({ columns })).limits)).toEqual(["/sheets/0/columns"]);
    expect(findXlsxRequestErrors(request({ columns: columns.slice(1) })).limitsCount).toBe(0);
  });

  it("refuses cells over 32,767 characters in rows, headers and explicit cells", () => {
    const long = "x".repeat(EXCEL_MAX_CELL_CHARS + 1);
    const fit = "x".repeat(EXCEL_MAX_CELL_CHARS);
    const parsed = request({
      columns: [{ key: "a", header: long }, { key: "n", type: "number" }],
      rows: [[fit, 1], { a: long }],
      cells: { C3: { value: long } },
    });
    expect(pointers(findXlsxRequestErrors(parsed).limits)).toEqual(["/sheets/0/columns/0/header", "/sheets/0/rows/1/a", "/sheets/0/cells/C3/value"]);
  });

  it("refuses references outside the grid", () => {
    const parsed = request({
      merges: ["A1048576:B1048577"],
      cells: { XFE1: { value: 1 }, XFD1048576: { value: 2 } },
      autofilter: "A1:XFE2",
      data_validations: [{ range: "A1:A1048577", type: "list", values: ["x"] }],
      conditional_formats: [{ type: "color_scale", range: "ZZZ1", colors: ["#000000", "#FFFFFF"] }],
    });
    expect(pointers(findXlsxRequestErrors(parsed).limits)).toEqual([
      "/sheets/0/autofilter",
      "/sheets/0/merges/0",
      "/sheets/0/cells/XFE1",
      "/sheets/0/data_validations/0/range",
      "/sheets/0/conditional_formats/0/range",
    ]);
  });

  it("refuses numbers, dates, formulas and lists Excel cannot hold", () => {
    const parsed = request({
      columns: [{ key: "n", type: "number" }, { key: "d", type: "date" }],
      rows: [[1e308, "1899-12-31"], [-1e307, "9999-12-31"]],
      cells: { A5: { formula: "1+".repeat(4100) + "1" } },
      data_validations: [{ range: "A2:A9", type: "list", values: ["a,b", "x".repeat(300)] }],
    });
    expect(pointers(findXlsxRequestErrors(parsed).limits)).toEqual([
      "/sheets/0/rows/0/0",
      "/sheets/0/rows/0/1",
      "/sheets/0/cells/A5/formula",
      "/sheets/0/data_validations/0/values/0",
      "/sheets/0/data_validations/0/values",
    ]);
  });

  it("refuses more than 65,530 hyperlinks in a sheet but not plain-text urls", () => {
    const columns = [{ key: "u", type: "url" }];
    const links = request({ columns, rows: new Array(65_531).fill(["https://example.com"]) });
    expect(pointers(findXlsxRequestErrors(links).limits)).toEqual(["/sheets/0/rows"]);
    const text = request({ columns, rows: new Array(65_531).fill(["ftp://example.com"]) });
    expect(findXlsxRequestErrors(text).limitsCount).toBe(0);
  });

  it("throws 422 xlsx_limits with the pointers", () => {
    const problem = thrown(() => assertXlsxWritable(request({ name: "a:b" })));
    expect(problem.slug).toBe("xlsx_limits");
    expect(problem.status).toBe(422);
    const errors = problem.toBody().errors ?? [];
    expect(pointers(errors)).toEqual(["/sheets/0/name"]);
    expect(errors[0]!.detail).toContain("[ ] : * ? / \\");
  });

  it("reports at most 100 errors but counts them all", () => {
    const parsed = request({ columns: [{ key: "n", type: "number" }], rows: new Array(250).fill([1e308]) });
    const { limits, limitsCount } = findXlsxRequestErrors(parsed);
    expect(limits).toHaveLength(XLSX_MAX_REPORTED_ERRORS);
    expect(limitsCount).toBe(250);
    expect(thrown(() => assertXlsxWritable(parsed)).message).toContain("250 fields");
  });
});

describe("values that do not fit their column (400 validation_failed)", () => {
  it("points at each mismatched cell, in array and object rows", () => {
    const parsed = request({
      columns: [
        { key: "s" },
        { key: "n", type: "number" },
        { key: "i", type: "integer" },
        { key: "b", type: "boolean" },
        { key: "d", type: "date" },
        { key: "t", type: "datetime" },
        { key: "x/y", type: "percent" },
      ],
      rows: [
        [1, "1", 1.5, "true", "2026-02-30", "2026-11-01 25:00", 0.5],
        { s: "ok", n: 2, i: 3, b: false, d: "2026-02-28", t: "2026-11-01T10:00:00+01:00", "x/y": "50%", nope: 1 },
        ["a", 1, 2, true, "2026-01-01", "2026-01-01T00:00Z", 0.1, "one too many"],
        [null, null, null, null, null, null, null],
      ],
    });
    const { invalid, limitsCount } = findXlsxRequestErrors(parsed);
    expect(limitsCount).toBe(0);
    expect(pointers(invalid)).toEqual([
      "/sheets/0/rows/0/0",
      "/sheets/0/rows/0/1",
      "/sheets/0/rows/0/2",
      "/sheets/0/rows/0/3",
      "/sheets/0/rows/0/4",
      "/sheets/0/rows/0/5",
      "/sheets/0/rows/1/x~1y",
      "/sheets/0/rows/1/nope",
      "/sheets/0/rows/2",
    ]);
  });

  it("checks references, duplicate keys, merges and rule arity", () => {
    const parsed = request({
      header_style: "missing",
      columns: [{ key: "a", style: "nope" }, { key: "a" }],
      merges: ["A1:B2", "B2:C3", "D4"],
      cells: { A9: { value: "x", style: "gone" } },
      conditional_formats: [{ type: "cell_value", range: "A1:A9", operator: "between", values: [1], style: "hdr" }],
    });
    expect(pointers(findXlsxRequestErrors(parsed).invalid)).toEqual([
      "/sheets/0/header_style",
      "/sheets/0/columns/0/style",
      "/sheets/0/columns/1/key",
      "/sheets/0/merges/2",
      "/sheets/0/merges/1",
      "/sheets/0/cells/A9/style",
      "/sheets/0/conditional_formats/0/values",
    ]);
  });

  it("throws 400 validation_failed before looking at limits", () => {
    const problem = thrown(() => assertXlsxWritable(request({ name: "a:b", rows: [["ok", "not a number"]] })));
    expect(problem.slug).toBe("validation_failed");
    expect(problem.errors).toEqual([{ pointer: "/sheets/0/rows/0/1", detail: "A number cell takes a number." }]);
  });
});

describe("countCells", () => {
  it("counts header and data rows times columns plus explicit cells, over all sheets", () => {
    const parsed = xlsxRequestSchema.parse({
      sheets: [
        { name: "A", columns: [{ key: "a", header: "A" }, { key: "b" }, { key: "c" }], rows: [[1], [], { a: "x" }], cells: { Z9: { formula: "1" } } },
        { name: "B", columns: [{ key: "a" }], rows: [["x"], ["y"]] },
      ],
    });
    expect(countCells(parsed)).toBe((1 + 3) * 3 + 1 + 2 * 1);
  });
});

describe("helpers shared with the origin", () => {
  it("converts column numbers and A1 references both ways", () => {
    expect([1, 26, 27, 52, 702, 703, 16_384].map(columnLetters)).toEqual(["A", "Z", "AA", "AZ", "ZZ", "AAA", "XFD"]);
    expect(parseA1Cell("XFD1048576")).toEqual({ col: 16_384, row: 1_048_576 });
    expect(parseA1Range("C5:A1")).toEqual({ top: 1, left: 1, bottom: 5, right: 3 });
    expect(parseA1Range("B2")).toEqual({ top: 2, left: 2, bottom: 2, right: 2 });
  });

  it("parses ISO dates and datetimes strictly", () => {
    expect(parseIsoDateTime("2024-02-29", true)).toMatchObject({ year: 2024, month: 2, day: 29, hour: 0, offsetMinutes: null });
    expect(parseIsoDateTime("2026-11-01T09:05:07.25+05:45", false)).toEqual({
      year: 2026, month: 11, day: 1, hour: 9, minute: 5, second: 7, millisecond: 250, offsetMinutes: 345,
    });
    expect(parseIsoDateTime("2026-11-01 09:05", false)).toMatchObject({ hour: 9, minute: 5, second: 0, offsetMinutes: null });
    expect(parseIsoDateTime("2026-11-01T09:05Z", false)).toMatchObject({ offsetMinutes: 0 });
    expect(parseIsoDateTime("2026-11-01T09:05:00-03:30", false)).toMatchObject({ offsetMinutes: -210 });
    for (const bad of ["2023-02-29", "2026-13-01", "2026-1-01", "2026-11-01T24:00", "2026-11-01T10:60", "2026-11-01T10:00:00+1", "2026-11-01T10:00:00.1234", "2026-11-01Z", "2026-11-01T10", "x"]) {
      expect(parseIsoDateTime(bad, false), bad).toBeNull();
    }
    expect(parseIsoDateTime("2026-11-01T10:00", true)).toBeNull();
  });

  it("links only http, https and mailto", () => {
    expect(hyperlinkTarget("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(hyperlinkTarget("mailto:a@example.com")).toBe("mailto:a@example.com");
    for (const text of ["javascript:alert(1)", "file:///etc/passwd", "ftp://x", "example.com", `https://example.com/${"a".repeat(2100)}`]) {
      expect(hyperlinkTarget(text)).toBeNull();
    }
  });
});
