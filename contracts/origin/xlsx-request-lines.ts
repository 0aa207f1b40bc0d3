// How a workbook request travels from the edge to the origin: as lines the origin can read as they
// arrive, writing each row into the sheet and dropping it, instead of one JSON document it must hold
// whole (text and parsed tree) before it writes a cell.
//   line 1: the request as JSON, each sheet's `rows` replaced by how many rows it has;
//   then:   each sheet's rows in order, as JSON arrays of up to XLSX_ROWS_PER_LINE rows, one a line.
// JSON.stringify never writes a raw line break, so a line break always ends a line. A line of rows
// costs the edge one JSON.stringify, not one a row, and keeps what the origin parses at once small.
// A request written as one JSON document (rows inline, no line break) is read as it is: a job
// stored before this format still runs.
import type { XlsxRequest } from "../xlsx-request.ts";

export const XLSX_REQUEST_LINES_CONTENT_TYPE = "application/vnd.pixelpress.xlsx-lines";
export const XLSX_ROWS_PER_LINE = 256;

/** The head line's request: each sheet's rows as their count, or still inline (one JSON document). */
export type XlsxRequestHead = Omit<XlsxRequest, "sheets"> & { sheets: (Omit<XlsxRequest["sheets"][number], "rows"> & { rows: number | XlsxRequest["sheets"][number]["rows"] })[] };

export function xlsxRequestLines(request: XlsxRequest): string {
  const head: XlsxRequestHead = { ...request, sheets: request.sheets.map((sheet) => ({ ...sheet, rows: sheet.rows.length })) };
  const lines = [JSON.stringify(head)];
  for (const sheet of request.sheets) {
    for (let at = 0; at < sheet.rows.length; at += XLSX_ROWS_PER_LINE) lines.push(JSON.stringify(sheet.rows.slice(at, at + XLSX_ROWS_PER_LINE)));
  }
  return `${lines.join("\n")}\n`;
}

function malformed(detail: string): Error {
  return new Error(`xlsx request lines: ${detail}`);
}

/** The request `xlsxRequestLines` wrote (or one JSON document), put back together for its schema to parse. */
export function parseXlsxRequestLines(text: string): unknown {
  const newline = text.indexOf("\n");
  if (newline < 0) return JSON.parse(text);
  const head = JSON.parse(text.slice(0, newline)) as { sheets: { rows: unknown }[] };
  if (!text.endsWith("\n")) throw malformed("the last line is cut short");
  const rows = text
    .slice(newline + 1, -1)
    .split("\n")
    .filter((line) => line.length > 0)
    .flatMap((line) => {
      const parsed = JSON.parse(line) as unknown;
      if (!Array.isArray(parsed)) throw malformed("a line of rows is not an array");
      return parsed as unknown[];
    });
  let next = 0;
  for (const sheet of head.sheets) {
    const count = sheet.rows;
    if (!Number.isSafeInteger(count) || (count as number) < 0) throw malformed("a sheet's rows are not counted");
    sheet.rows = rows.slice(next, next + (count as number));
    next += count as number;
  }
  if (next !== rows.length) throw malformed(`the sheets count ${next} rows; ${rows.length} follow`);
  return head;
}
