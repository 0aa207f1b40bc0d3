// The spreadsheet engine: a checked request in, an .xlsx streamed into `sink`, stats out.
// exceljs's streaming WorkbookWriter keeps only uncommitted rows in memory (its in-memory
// workbook needs ~1.5 GB for a million cells); strings written into their cells instead of
// a shared-strings table keep memory flat at the cost of a somewhat larger file.
import ExcelJS from "exceljs";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertXlsxWritable, countCells, hasHeaderRow, type XlsxRequest } from "../../contracts/xlsx-request.ts";
import { ByteCounter } from "./byte-counter.ts";
import { createStyleBook } from "./named-styles.ts";
import { createPacer } from "./output-pacing.ts";
import { writeSheet } from "./write-sheet.ts";
import { createZonedClock } from "./zoned-date.ts";
import type { XlsxStats as ContractXlsxStats } from "../../contracts/origin/xlsx-generate.ts";

/** The contract's stats: `cells` is the billed count (see countCells), `output_bytes` the .xlsx written to the sink. */
export type XlsxStats = ContractXlsxStats;

const CREATOR = "pixelpress";

function newWorkbook(request: XlsxRequest, output: Writable): ExcelJS.stream.xlsx.WorkbookWriter {
  const properties = request.properties;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = properties.creator ?? CREATOR;
  workbook.lastModifiedBy = properties.creator ?? CREATOR;
  if (properties.title !== undefined) workbook.title = properties.title;
  if (properties.subject !== undefined) workbook.subject = properties.subject;
  if (properties.keywords !== undefined) workbook.keywords = properties.keywords;
  if (properties.description !== undefined) workbook.description = properties.description;
  if (properties.category !== undefined) workbook.category = properties.category;
  return workbook;
}

/**
 * Checks the request (400 validation_failed / 422 xlsx_limits, before a byte is written),
 * then streams the workbook into `sink` and resolves once the sink has finished.
 */
export async function generateXlsx(request: XlsxRequest, sink: Writable): Promise<XlsxStats> {
  assertXlsxWritable(request);
  const counter = new ByteCounter();
  let sinkFailure: unknown;
  const delivered = pipeline(counter, sink);
  delivered.catch((error: unknown) => {
    sinkFailure = error;
  });

  const workbook = newWorkbook(request, counter);
  const context = { styles: createStyleBook(request.styles), clock: createZonedClock(request.timezone), pacer: createPacer(counter, () => sinkFailure) };
  try {
    for (const sheet of request.sheets) await writeSheet(workbook, sheet, context);
    await Promise.all([workbook.commit(), delivered]);
  } catch (error) {
    counter.destroy(error as Error);
    throw error;
  }
  return {
    sheets: request.sheets.length,
    rows: request.sheets.reduce((sum, sheet) => sum + sheet.rows.length + (hasHeaderRow(sheet) ? 1 : 0), 0),
    cells: countCells(request),
    output_bytes: counter.bytes,
  };
}
