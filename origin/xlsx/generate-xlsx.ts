// The spreadsheet engine: a request in, an .xlsx streamed into `sink`, stats out.
// SpreadsheetML is written as text straight into a zip stream (zip-writer.ts): each sheet's
// rows are checked, turned into XML and deflated as they come (from memory or off the request
// stream), so memory stays flat whatever the row count; only the shared-strings table (capped)
// and each sheet's hyperlink list grow.
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertXlsxWritable, countCells, findXlsxRequestErrors, hasHeaderRow, parseA1Range, XlsxRowCheck, type XlsxRequest } from "../../contracts/xlsx-request.ts";
import { parseSheetRange, qualifiedRange } from "../../contracts/xlsx-a1.ts";
import type { XlsxStats as ContractXlsxStats } from "../../contracts/origin/xlsx-generate.ts";
import { ByteCounter } from "./byte-counter.ts";
import { createStyleBook } from "./named-styles.ts";
import {
  appPropertiesXml,
  contentTypesXml,
  CONTENT_TYPES,
  corePropertiesXml,
  ROOT_RELATIONSHIPS,
  workbookRelationshipsXml,
  workbookXml,
  type DefinedName,
} from "./package-parts.ts";
import { printNames } from "./print-setup.ts";
import { PasswordBook, workbookProtectionXml } from "./protection.ts";
import { SharedStrings, type SharedStringsMode } from "./shared-strings.ts";
import { checkedBatches, rowsInMemory, type SheetRows } from "./sheet-rows.ts";
import { THEME_XML } from "./theme.ts";
import { writeSheet } from "./write-sheet.ts";
import { ZipWriter } from "./zip-writer.ts";
import { createZonedClock } from "./zoned-date.ts";

/** The contract's stats: `cells` is the billed count (see countCells), `output_bytes` the .xlsx written to the sink. */
export type XlsxStats = ContractXlsxStats;

export interface XlsxWriterOptions {
  /** `auto` (the default) shares a string column's text when its sample repeats; the others force a choice (the bench compares them). */
  sharedStrings?: SharedStringsMode;
  /** Each sheet's rows when they are read as they are written (request-stream.ts); by default `sheet.rows`. */
  rows?: readonly SheetRows[];
}

/**
 * Every row checked on its way through, the rest of the request before a byte is written: a problem
 * there writes nothing. Either way every row is read and checked, so the problem (400
 * validation_failed / 422 xlsx_limits) lists the fields assertXlsxWritable lists for the whole request.
 */
async function checkOnly(request: XlsxRequest, rows: readonly SheetRows[], checks: readonly XlsxRowCheck[]): Promise<never> {
  for (const [s, sheetRows] of rows.entries()) for await (const _ of checkedBatches(sheetRows, checks[s]!));
  assertXlsxWritable(request, "inline", checks);
  throw new Error("the request failed its checks but assertXlsxWritable found no problem");
}

/**
 * Checks the request (400 validation_failed / 422 xlsx_limits) and streams the workbook into `sink`,
 * resolving once the sink has finished. A row that fails its check is found only once the rows before
 * it were written: the sink is then destroyed with the problem, so a caller commits to the workbook
 * only once this resolves (the origin's route holds it until then).
 */
export async function generateXlsx(request: XlsxRequest, sink: Writable, options: XlsxWriterOptions = {}): Promise<XlsxStats> {
  const rows = options.rows ?? request.sheets.map((sheet) => rowsInMemory(sheet.rows));
  const checks = request.sheets.map((sheet, s) => new XlsxRowCheck(s, sheet.columns, rows[s]!.count));
  const skeleton = findXlsxRequestErrors(request, "inline", checks);
  if (skeleton.invalidCount + skeleton.limitsCount > 0) await checkOnly(request, rows, checks);
  const counter = new ByteCounter();
  const delivered = pipeline(counter, sink);
  const aborted = delivered.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => Promise.reject(error),
  );
  aborted.catch(() => undefined);

  const zip = new ZipWriter(counter, aborted);
  const styles = createStyleBook(request.styles);
  const strings = new SharedStrings();
  const sheetNames = request.sheets.map((sheet) => sheet.name);
  const parts: [string, string][] = [];
  const context = {
    zip,
    parts: { tables: 0, charts: 0, drawings: 0, images: 0, comments: 0, vmlBlocks: 0, contentTypes: parts },
    sheetNames,
    styles,
    clock: createZonedClock(request.timezone),
    strings,
    sharedStrings: options.sharedStrings ?? "auto",
    passwords: new PasswordBook(),
  };
  try {
    const definedNames: DefinedName[] = [];
    for (const [i, sheet] of request.sheets.entries()) {
      const written = await writeSheet(sheet, { count: rows[i]!.count, batches: checkedBatches(rows[i]!, checks[i]!) }, i + 1, context);
      parts.push([`/xl/worksheets/sheet${i + 1}.xml`, CONTENT_TYPES.worksheet]);
      if (written.filter) definedNames.push({ name: "_xlnm._FilterDatabase", localSheet: i, hidden: true, formula: qualifiedRange(sheet.name, parseA1Range(written.filter)) });
      definedNames.push(...printNames(sheet.print, sheet.name, i));
    }
    assertXlsxWritable(request, "inline", checks);
    for (const defined of request.defined_names) {
      const { sheet, range } = parseSheetRange(defined.range);
      const name = sheet === undefined ? sheetNames[0]! : sheetNames.find((n) => n.toLowerCase() === sheet.toLowerCase())!;
      definedNames.push({ name: defined.name, formula: qualifiedRange(name, range) });
    }
    const sst = await zip.openEntry("xl/sharedStrings.xml");
    for (const piece of strings.xml()) {
      sst.write(piece);
      if (sst.pending > 1 << 16) await sst.flush();
    }
    await sst.close();
    await zip.addFile("xl/styles.xml", styles.xml());
    await zip.addFile("xl/theme/theme1.xml", THEME_XML);
    await zip.addFile("xl/workbook.xml", workbookXml(sheetNames, definedNames, workbookProtectionXml(request.protection, context.passwords)));
    await zip.addFile("xl/_rels/workbook.xml.rels", workbookRelationshipsXml(request.sheets.length));
    await zip.addFile("_rels/.rels", ROOT_RELATIONSHIPS);
    await zip.addFile("docProps/core.xml", corePropertiesXml(request.properties, new Date()));
    await zip.addFile("docProps/app.xml", appPropertiesXml(sheetNames));
    parts.push(
      ["/xl/workbook.xml", CONTENT_TYPES.workbook],
      ["/xl/styles.xml", CONTENT_TYPES.styles],
      ["/xl/theme/theme1.xml", CONTENT_TYPES.theme],
      ["/xl/sharedStrings.xml", CONTENT_TYPES.sharedStrings],
      ["/docProps/core.xml", CONTENT_TYPES.core],
      ["/docProps/app.xml", CONTENT_TYPES.app],
    );
    await zip.addFile("[Content_Types].xml", contentTypesXml(parts));
    await zip.finish();
    counter.end();
    await delivered;
  } catch (error) {
    counter.destroy(error as Error);
    throw error;
  }
  return {
    sheets: request.sheets.length,
    rows: request.sheets.reduce((sum, sheet, s) => sum + rows[s]!.count + (hasHeaderRow(sheet) ? 1 : 0), 0),
    cells: countCells(request, rows.map((sheetRows) => sheetRows.count)),
    output_bytes: counter.bytes,
  };
}
