import ExcelJS from "exceljs";
import { Writable } from "node:stream";
import { cellsOf } from "../../test/support/xlsx-cells.ts";
import { beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { countCells, xlsxRequestSchema, type XlsxRequest } from "../../contracts/xlsx-request.ts";
import { generateXlsx, type XlsxStats } from "./generate-xlsx.ts";

class CollectingSink extends Writable {
  readonly chunks: Buffer[] = [];
  readonly slow: boolean;
  constructor(slow = false) {
    super({ highWaterMark: 1024 });
    this.slow = slow;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error) => void): void {
    this.chunks.push(chunk);
    // A slow sink acknowledges each chunk a turn later, so its small buffer fills and the engine must wait.
    if (this.slow) setImmediate(callback);
    else callback();
  }
  get buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

async function generate(input: unknown, sink = new CollectingSink()): Promise<{ buffer: Buffer; stats: XlsxStats; request: XlsxRequest }> {
  const request = xlsxRequestSchema.parse(input);
  const stats = await generateXlsx(request, sink);
  return { buffer: sink.buffer, stats, request };
}

async function openWithExcelJS(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

function openWithSheetJS(buffer: Buffer): XLSX.WorkBook & { files: Record<string, { content: Uint8Array }> } {
  return XLSX.read(buffer, { type: "buffer", cellStyles: true, bookFiles: true }) as XLSX.WorkBook & { files: Record<string, { content: Uint8Array }> };
}

function rawXml(book: ReturnType<typeof openWithSheetJS>, path: string): string {
  const file = book.files[path];
  if (!file) throw new Error(`no ${path} in the zip`);
  return Buffer.from(file.content).toString("utf8");
}

// Excel's day count for a wall time, by definition: days since 1899-12-30 (after March 1900).
function wallSerial(year: number, month: number, day: number, hour = 0, minute = 0): number {
  return (Date.UTC(year, month - 1, day, hour, minute) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

const INJECTIONS = ["=SUM(1,2)", "+1+2", "-3+4", "@SUM(1)", "=HYPERLINK(\"https://evil.example\",\"click\")"];

const invoices = {
  filename: "report.xlsx",
  timezone: "Europe/Berlin",
  styles: {
    hdr: { bold: true, fill: "#F2F2F2", border: { style: "thin", color: "#999999", sides: ["bottom"] } },
    eur: { num_format: "#,##0.00 [$€-x-euro2]" },
    red: { color: "#9C0006", fill: "#FFC7CE" },
    note: { italic: true, size: 9, font: "Arial", alignment: { horizontal: "center", wrap: true } },
  },
  properties: { title: "Invoices 2026", creator: "Billing", subject: "Q4", keywords: "invoices,2026" },
  sheets: [
    {
      name: "Invoices",
      freeze: { rows: 1, columns: 1 },
      autofilter: true,
      header_style: "hdr",
      columns: [
        { key: "co", header: "Company", type: "string", width: 24 },
        { key: "total", header: "Total", type: "number", style: "eur" },
        { key: "issued", header: "Issued", type: "date", format: "dd/mm/yyyy" },
        { key: "at", header: "Updated", type: "datetime" },
        { key: "paid", header: "Paid", type: "boolean" },
        { key: "site", header: "Site", type: "url" },
        { key: "qty", header: "Qty", type: "integer" },
        { key: "share", header: "Share", type: "percent" },
        { key: "fee", header: "Fee", type: "currency" },
      ],
      rows: [
        ["Acme", 1500.5, "2026-11-01", "2026-07-01T10:00:00Z", true, "https://example.com/a", 42, 0.125, 1234.5],
        { co: "Globex", total: 99.99, issued: "2026-01-31", at: "2026-01-31T23:30:00Z", paid: false, site: "javascript:alert(1)", qty: -7, share: 1, fee: 0 },
        [INJECTIONS[0], 3, null, "2026-03-29T02:30", null, "mailto:billing@example.com", 0, 0, -1],
        { co: INJECTIONS[1], total: 2000 },
      ],
      merges: ["B7:D7", "H8:I9", "J2:J3"],
      cells: {
        A3: { value: "Override Ltd" },
        B6: { formula: "=SUM(B2:B5)" },
        B7: { value: "Totals above", style: "note" },
        H8: { value: "Notes" },
        B8: { value: 12.5 },
        C8: { value: "not a date" },
        K2: { value: "2026-12-24", type: "date" },
        A10: { value: INJECTIONS[2] },
        A11: { value: INJECTIONS[3] },
        A12: { value: INJECTIONS[4] },
      },
      data_validations: [{ range: "J2:J5", type: "list", values: ["open", "paid", "void"], prompt: "Pick a state" }],
      conditional_formats: [
        { type: "cell_value", range: "B2:B5", operator: "greater_than", values: [1000], style: "red" },
        { type: "cell_value", range: "A2:A5", operator: "equal", values: ["say \"hi\""], style: "red" },
        { type: "color_scale", range: "G2:G5", colors: ["#F8696B", "#FFEB84", "#63BE7B"] },
      ],
    },
    { name: "Empty", columns: [{ key: "only" }] },
  ],
};

describe("generateXlsx: a workbook with every feature, read back by two readers", () => {
  let result: Awaited<ReturnType<typeof generate>>;
  let excel: ExcelJS.Workbook;
  let sheetjs: ReturnType<typeof openWithSheetJS>;
  let sheet: ExcelJS.Worksheet;
  let cells: ReturnType<typeof cellsOf>;

  beforeAll(async () => {
    result = await generate(invoices);
    excel = await openWithExcelJS(result.buffer);
    sheetjs = openWithSheetJS(result.buffer);
    sheet = excel.getWorksheet("Invoices")!;
    cells = cellsOf(sheetjs.Sheets.Invoices!);
  });

  it("reports stats that match the file", () => {
    expect(result.stats).toEqual({ sheets: 2, rows: 5, cells: countCells(result.request), output_bytes: result.buffer.length });
    expect(result.buffer.subarray(0, 2).toString()).toBe("PK");
  });

  it("keeps sheet order, names and document properties", () => {
    expect(excel.worksheets.map((ws) => ws.name)).toEqual(["Invoices", "Empty"]);
    expect(sheetjs.SheetNames).toEqual(["Invoices", "Empty"]);
    expect(excel).toMatchObject({ title: "Invoices 2026", creator: "Billing", subject: "Q4", keywords: "invoices,2026" });
    expect(sheetjs.Props).toMatchObject({ Title: "Invoices 2026", Author: "Billing", Subject: "Q4" });
  });

  it("writes the header row with the header style", () => {
    expect(sheet.getRow(1).values).toEqual([undefined, "Company", "Total", "Issued", "Updated", "Paid", "Site", "Qty", "Share", "Fee"]);
    const header = sheet.getCell("B1");
    expect(header.font).toMatchObject({ bold: true });
    expect(header.fill).toMatchObject({ type: "pattern", pattern: "solid", fgColor: { argb: "FFF2F2F2" } });
    expect(header.border?.bottom).toMatchObject({ style: "thin", color: { argb: "FF999999" } });
    expect(header.border?.top).toBeUndefined();
    expect(cells.B1).toMatchObject({ t: "s", v: "Total", s: { patternType: "solid", fgColor: { rgb: "F2F2F2" } } });
  });

  it("converts each column type, from array rows and object rows", () => {
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      "Acme",
      1500.5,
      new Date(Date.UTC(2026, 10, 1)),
      new Date(Date.UTC(2026, 6, 1, 12)),
      true,
      { text: "https://example.com/a", hyperlink: "https://example.com/a" },
      42,
      0.125,
      1234.5,
      undefined,
      new Date(Date.UTC(2026, 11, 24)),
    ]);
    expect(cells.B2).toMatchObject({ t: "n", v: 1500.5, z: "#,##0.00 [$€-x-euro2]" });
    expect(cells.C2).toMatchObject({ t: "n", v: wallSerial(2026, 11, 1), z: "dd/mm/yyyy", w: "01/11/2026" });
    expect(cells.E2).toMatchObject({ t: "b", v: true });
    expect(cells.G2).toMatchObject({ t: "n", v: 42, w: "42" });
    expect(cells.H2).toMatchObject({ t: "n", v: 0.125, w: "12.50%" });
    expect(cells.I2).toMatchObject({ t: "n", v: 1234.5, w: "1,234.50" });
    expect(cells.K2).toMatchObject({ t: "n", v: wallSerial(2026, 12, 24), w: "2026-12-24" });
    expect(cells.E3).toMatchObject({ t: "b", v: false });
    expect(cells.G3).toMatchObject({ t: "n", v: -7 });
    expect(cells.B5).toMatchObject({ t: "n", v: 2000 });
  });

  it("shows datetimes as wall time in the workbook timezone", () => {
    // 10:00Z in July is 12:00 in Berlin (CEST), 23:30Z on 31 January is 00:30 on 1 February (CET).
    expect(cells.D2).toMatchObject({ t: "n", v: wallSerial(2026, 7, 1, 12), w: "2026-07-01 12:00:00" });
    expect(cells.D3).toMatchObject({ t: "n", v: wallSerial(2026, 2, 1, 0, 30), w: "2026-02-01 00:30:00" });
    // A value without an offset is already wall time, even inside the DST gap.
    expect(cells.D4).toMatchObject({ v: wallSerial(2026, 3, 29, 2, 30), w: "2026-03-29 02:30:00" });
    expect(sheet.getCell("D3").value).toEqual(new Date(Date.UTC(2026, 1, 1, 0, 30)));
  });

  it("keeps strings that look like formulas as text, and takes formulas only from formula cells", () => {
    const injected = { A4: INJECTIONS[0], A5: INJECTIONS[1], A10: INJECTIONS[2], A11: INJECTIONS[3], A12: INJECTIONS[4] };
    for (const [ref, text] of Object.entries(injected)) {
      expect(cells[ref], ref).toMatchObject({ t: "s", v: text });
      expect(cells[ref]?.f, ref).toBeUndefined();
      expect(sheet.getCell(ref).type, ref).toBe(ExcelJS.ValueType.String);
      expect(sheet.getCell(ref).value, ref).toBe(text);
    }
    expect(cells.B6?.f).toBe("SUM(B2:B5)");
    expect(rawXml(sheetjs, "xl/worksheets/sheet1.xml").match(/<f>/g)).toHaveLength(1);
    expect(sheet.getCell("B6").type).toBe(ExcelJS.ValueType.Formula);
    expect(sheet.getCell("B6").formula).toBe("SUM(B2:B5)");
    // An unstyled formula cell under a column keeps the column's number format.
    expect(cells.B6?.z).toBe("#,##0.00 [$€-x-euro2]");
  });

  it("lets explicit cells override row values and take their column's look", () => {
    expect(cells.A3).toMatchObject({ t: "s", v: "Override Ltd" });
    expect(cells.B8).toMatchObject({ t: "n", v: 12.5, z: "#,##0.00 [$€-x-euro2]" });
    // Text under a date column is not formatted as a date.
    expect(cells.C8).toMatchObject({ t: "s", v: "not a date", z: "General" });
  });

  it("links only http, https and mailto urls", () => {
    expect(cells.F2?.l?.Target).toBe("https://example.com/a");
    expect(cells.F4?.l?.Target).toBe("mailto:billing@example.com");
    expect(cells.F3).toMatchObject({ t: "s", v: "javascript:alert(1)" });
    expect(cells.F3?.l).toBeUndefined();
    expect(sheet.getCell("F3").value).toBe("javascript:alert(1)");
  });

  it("merges cells, inside and beyond the data rows", () => {
    const merges = (sheetjs.Sheets.Invoices!["!merges"] ?? []).map((range) => XLSX.utils.encode_range(range)).sort();
    expect(merges).toEqual(["B7:D7", "H8:I9", "J2:J3"]);
    expect([...sheet.model.merges].sort()).toEqual(["B7:D7", "H8:I9", "J2:J3"]);
    expect(cells.B7).toMatchObject({ t: "s", v: "Totals above" });
    expect(sheet.getCell("B7").font).toMatchObject({ italic: true, size: 9, name: "Arial" });
    expect(sheet.getCell("B7").alignment).toMatchObject({ horizontal: "center", wrapText: true });
    expect(cells.H8).toMatchObject({ v: "Notes" });
  });

  it("freezes panes and sets the autofilter", () => {
    expect(sheet.views[0]).toMatchObject({ state: "frozen", xSplit: 1, ySplit: 1, topLeftCell: "B2" });
    expect(rawXml(sheetjs, "xl/worksheets/sheet1.xml")).toMatch(/<pane xSplit="1" ySplit="1" topLeftCell="B2"[^>]*state="frozen"/);
    expect(sheetjs.Sheets.Invoices!["!autofilter"]).toEqual({ ref: "A1:I5" });
    expect(sheet.autoFilter).toBe("A1:I5");
  });

  it("sets given widths and estimates the others from the content", () => {
    const widths = (sheetjs.Sheets.Invoices!["!cols"] ?? []).map((col) => col.width);
    expect(widths[0]).toBe(24);
    expect(sheet.getColumn(6).width).toBeGreaterThanOrEqual("mailto:billing@example.com".length);
    expect(sheet.getColumn(5).width).toBeLessThan(sheet.getColumn(6).width!);
  });

  it("writes list validations and conditional formats", () => {
    const validations = (sheet as unknown as { dataValidations: { model: Record<string, ExcelJS.DataValidation> } }).dataValidations.model;
    // exceljs reads a validated range back as one entry per cell.
    for (const ref of ["J2", "J3", "J4", "J5"]) {
      expect(validations[ref], ref).toMatchObject({ type: "list", allowBlank: true, formulae: ['"open,paid,void"'], prompt: "Pick a state" });
    }
    expect(validations.J6).toBeUndefined();
    const xml = rawXml(sheetjs, "xl/worksheets/sheet1.xml");
    expect(xml).toContain("<formula1>&quot;open,paid,void&quot;</formula1>");

    const formats = (sheet as unknown as { conditionalFormattings: ExcelJS.ConditionalFormattingOptions[] }).conditionalFormattings;
    expect(formats.map((f) => f.ref)).toEqual(["B2:B5", "A2:A5", "G2:G5"]);
    expect(formats[0]!.rules[0]).toMatchObject({ type: "cellIs", operator: "greaterThan", formulae: ["1000"] });
    expect(formats[0]!.rules[0]!.style).toMatchObject({ font: { color: { argb: "FF9C0006" } }, fill: { bgColor: { argb: "FFFFC7CE" } } });
    expect(formats[1]!.rules[0]).toMatchObject({ type: "cellIs", operator: "equal", formulae: ['"say ""hi"""'] });
    expect(formats[2]!.rules[0]).toMatchObject({ type: "colorScale", color: [{ argb: "FFF8696B" }, { argb: "FFFFEB84" }, { argb: "FF63BE7B" }] });
    expect(xml).toMatch(/<cfRule type="colorScale"[^>]*><colorScale><cfvo type="min"\/><cfvo type="percentile" val="50"\/><cfvo type="max"\/>/);
  });

  it("writes a sheet without rows", () => {
    expect(excel.getWorksheet("Empty")!.rowCount).toBe(0);
    expect(sheetjs.Sheets.Empty!["!ref"]).toBeUndefined();
  });
});

describe("generateXlsx: rows", () => {
  const columns = [
    { key: "name", header: "Name" },
    { key: "n", header: "N", type: "number" },
    { key: "when", header: "When", type: "datetime" },
    { key: "ok", type: "boolean" },
  ];

  it("reads the same from object rows as from array rows, in any key order", async () => {
    const arrays = await generate({ timezone: "Asia/Kathmandu", sheets: [{ name: "S", columns, rows: [["a", 1, "2026-05-05T00:00:00Z", true], ["b", null, null, false], ["c"]] }] });
    const objects = await generate({
      timezone: "Asia/Kathmandu",
      sheets: [{ name: "S", columns, rows: [{ ok: true, when: "2026-05-05T00:00:00Z", n: 1, name: "a" }, { name: "b", ok: false, n: null }, { name: "c" }] }],
    });
    const table = (buffer: Buffer) => XLSX.utils.sheet_to_json(openWithSheetJS(buffer).Sheets.S!, { header: 1, raw: true });
    expect(table(objects.buffer)).toEqual(table(arrays.buffer));
    expect(table(arrays.buffer)).toEqual([["Name", "N", "When"], ["a", 1, wallSerial(2026, 5, 5, 5, 45), true], ["b", undefined, undefined, false], ["c"]]);
  });

  it("keeps hostile text readable: markup, control characters, lone surrogates", async () => {
    const hostile = "\u0000\u0007bell\uD800 <b>x</b> & 'q' \"dq\" ]]>";
    const { buffer } = await generate({ sheets: [{ name: "S", columns: [{ key: "t" }], rows: [[hostile]] }] });
    // XML 1.0 cannot carry C0 controls (exceljs drops them); UTF-8 turns a lone surrogate into U+FFFD.
    const expected = "bell\uFFFD <b>x</b> & 'q' \"dq\" ]]>";
    expect(openWithSheetJS(buffer).Sheets.S!.A1).toMatchObject({ t: "s", v: expected });
    expect((await openWithExcelJS(buffer)).getWorksheet("S")!.getCell("A1").value).toBe(expected);
  });

  it("keeps every cell of a sheet many times larger than what zlib may hold queued, multi-byte and escaped text included", async () => {
    const count = 30_000;
    const text = (i: number) => (i % 997 === 0 ? `<€ & 数据 😀 ${i}>` : `row ${i}`);
    const rows = Array.from({ length: count }, (_, i) => [text(i), i * 1.25, `2026-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:30:00Z`, i % 2 === 0]);
    const { buffer, stats } = await generate({ timezone: "Europe/Berlin", sheets: [{ name: "Big", columns, rows }] });
    const book = openWithSheetJS(buffer);
    // Several times the 256 KiB zlib may hold before a flush waits, so the queue fills and drains many times.
    expect(book.files["xl/worksheets/sheet1.xml"]!.content.length).toBeGreaterThan(2_000_000);
    expect(stats.rows).toBe(count + 1);
    const table = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Big!, { header: 1, raw: true });
    expect(table).toHaveLength(count + 1);
    for (const i of [0, 1, 996, 997, 14_999, 25_922, count - 1]) {
      const month = 1 + (i % 9);
      // Berlin is UTC+1 until 29 March and UTC+2 from April to September.
      const hour = (i % 10) + (month < 4 ? 1 : 2);
      expect(table[i + 1], `row ${i}`).toEqual([text(i), i * 1.25, wallSerial(2026, month, 10 + (i % 10), hour, 30), i % 2 === 0]);
    }
  });

  it("streams many rows through a slow sink and keeps every row", async () => {
    const rows = Array.from({ length: 6_000 }, (_, i) => [`row ${i}`, i]);
    const sink = new CollectingSink(true);
    const { buffer, stats } = await generate({ sheets: [{ name: "Big", columns: columns.slice(0, 2), rows }] }, sink);
    expect(sink.chunks.length).toBeGreaterThan(10);
    expect(stats.rows).toBe(6_001);
    const table = XLSX.utils.sheet_to_json<[string, number]>(openWithSheetJS(buffer).Sheets.Big!, { header: 1 });
    expect(table).toHaveLength(6_001);
    expect(table[6_000]).toEqual(["row 5999", 5_999]);
  });
});

describe("generateXlsx: failures", () => {
  it("rejects what Excel cannot hold with 422 and pointers, before writing a byte", async () => {
    const sink = new CollectingSink();
    const request = xlsxRequestSchema.parse({
      sheets: [
        { name: "Dup", columns: [{ key: "a" }] },
        { name: "dup", columns: [{ key: "a" }], rows: [["x".repeat(32_768)]], cells: { XFE1: { value: 1 } } },
      ],
    });
    const error = await generateXlsx(request, sink).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ slug: "xlsx_limits", status: 422 });
    expect((error as ProblemError).errors?.map((e) => e.pointer)).toEqual(["/sheets/1/name", "/sheets/1/rows/0/0", "/sheets/1/cells/XFE1"]);
    expect(sink.chunks).toHaveLength(0);
  });

  it("rejects values that do not fit their column with 400", async () => {
    const request = xlsxRequestSchema.parse({ sheets: [{ name: "S", columns: [{ key: "d", type: "date" }], rows: [["01/11/2026"]] }] });
    await expect(generateXlsx(request, new CollectingSink())).rejects.toMatchObject({ slug: "validation_failed", status: 400, errors: [{ pointer: "/sheets/0/rows/0/0" }] });
  });

  it("stops and rejects when the sink fails mid-stream", async () => {
    let written = 0;
    const failing = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        callback(written > 2_000 ? new Error("disk full") : undefined);
      },
    });
    const request = xlsxRequestSchema.parse({ sheets: [{ name: "S", columns: [{ key: "a" }, { key: "b", type: "number" }], rows: Array.from({ length: 30_000 }, (_, i) => [`value ${i}`, i]) }] });
    await expect(generateXlsx(request, failing)).rejects.toThrow("disk full");
  });
});
