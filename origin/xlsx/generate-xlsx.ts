// The spreadsheet engine: a checked request in, an .xlsx streamed into `sink`, stats out.
// SpreadsheetML is written as text straight into a zip stream (zip-writer.ts): each sheet's
// rows are turned into XML and deflated as they come, so memory stays flat whatever the row
// count; only the shared-strings table (capped) and each sheet's hyperlink list grow.
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertXlsxWritable, countCells, hasHeaderRow, parseA1Range, type XlsxRequest } from "../../contracts/xlsx-request.ts";
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
import { THEME_XML } from "./theme.ts";
import { writeSheet } from "./write-sheet.ts";
import { ZipWriter } from "./zip-writer.ts";
import { createZonedClock } from "./zoned-date.ts";

/** The contract's stats: `cells` is the billed count (see countCells), `output_bytes` the .xlsx written to the sink. */
export type XlsxStats = ContractXlsxStats;

export interface XlsxWriterOptions {
  /** `auto` (the default) shares a string column's text when its sample repeats; the others force a choice (the bench compares them). */
  sharedStrings?: SharedStringsMode;
}

/**
 * Checks the request (400 validation_failed / 422 xlsx_limits, before a byte is written),
 * then streams the workbook into `sink` and resolves once the sink has finished.
 */
export async function generateXlsx(request: XlsxRequest, sink: Writable, options: XlsxWriterOptions = {}): Promise<XlsxStats> {
  assertXlsxWritable(request, "inline");
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
      const written = await writeSheet(sheet, i + 1, context);
      parts.push([`/xl/worksheets/sheet${i + 1}.xml`, CONTENT_TYPES.worksheet]);
      if (written.filter) definedNames.push({ name: "_xlnm._FilterDatabase", localSheet: i, hidden: true, formula: qualifiedRange(sheet.name, parseA1Range(written.filter)) });
      definedNames.push(...printNames(sheet.print, sheet.name, i));
    }
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
    rows: request.sheets.reduce((sum, sheet) => sum + sheet.rows.length + (hasHeaderRow(sheet) ? 1 : 0), 0),
    cells: countCells(request),
    output_bytes: counter.bytes,
  };
}
