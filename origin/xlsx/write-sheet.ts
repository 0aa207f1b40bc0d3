// Streams one sheet's XML into its zip entry: the sheet properties, views and column widths
// first, then the header row, the data rows and the explicit cells in row order (with empty
// outlined rows where no cell brings them), then what follows the cells in SpreadsheetML's
// fixed element order (protection, autofilter, merges, conditional formats, validations,
// hyperlinks, page setup, drawing, notes, tables). Only the hyperlink list grows with the rows.
import { checkDeadline } from "../worker-pool/deadline.ts";
import { columnLetters, hasHeaderRow, type XlsxCellValue, type XlsxColumn, type XlsxRow, type XlsxSheet } from "../../contracts/xlsx-request.ts";
import { AUTOFIT_SAMPLE_ROWS, estimateColumnWidth } from "./autofit.ts";
import { cellWriter, stringCell, styleAttribute, typeNumberFormat, type CellTargets, type CellWriter } from "./cell-value.ts";
import { commentsVml, commentsXml, vmlBlocks } from "./comments.ts";
import { conditionalFormattingXml } from "./conditional-format.ts";
import { dataValidationsXml } from "./data-validation.ts";
import { writeDrawing } from "./drawing.ts";
import { placeExplicitCells, type ColumnLook, type PlacedCell } from "./explicit-cells.ts";
import { columnOutline, RowOutline } from "./outline.ts";
import { CONTENT_TYPES, relationshipsXml, RELATIONSHIP_TYPES, type Relationship } from "./package-parts.ts";
import { pageSetupProperties, printXml } from "./print-setup.ts";
import { sheetProtectionXml } from "./protection.ts";
import type { SheetContext } from "./sheet-context.ts";
import { tableCells, tableXml } from "./tables.ts";
import { sharesStrings } from "./shared-strings.ts";
import { sampleAhead, type SampledRows } from "./sheet-rows.ts";
import { XML_DECLARATION } from "./xml-text.ts";
import { FLUSH_CHARS, type ZipEntry } from "./zip-writer.ts";

/** What the workbook part needs to know about a written sheet. */
export interface WrittenSheet {
  /** The autofilter's range, which the workbook names `_xlnm._FilterDatabase`. */
  filter: string | undefined;
}

interface ColumnPlan extends ColumnLook {
  write: CellWriter;
  styleAttr: string;
}

function columnValue(row: XlsxRow, column: XlsxColumn, index: number): XlsxCellValue | undefined {
  return Array.isArray(row) ? row[index] : row[column.key];
}

function* columnSample(sample: readonly XlsxRow[], column: XlsxColumn, index: number): Generator<XlsxCellValue> {
  for (const row of sample) yield columnValue(row, column, index) ?? null;
}

function planColumns(sheet: XlsxSheet, sample: readonly XlsxRow[], context: SheetContext, targets: CellTargets): { plans: ColumnPlan[]; widths: number[] } {
  const plans: ColumnPlan[] = [];
  const widths: number[] = [];
  sheet.columns.forEach((column, c) => {
    const style = context.styles.cellStyle(column.style, column.format, typeNumberFormat(column.type));
    const textual = column.type === "string" || column.type === "url";
    const shared = textual && sharesStrings(context.sharedStrings, columnSample(sample, column, c));
    plans.push({ type: column.type, style, styleAttr: styleAttribute(style.xf), write: cellWriter(column.type, context.clock, targets, shared) });
    widths.push(column.width ?? estimateColumnWidth(column, columnSample(sample, column, c), style.numFmt));
  });
  return { plans, widths };
}

function sheetViewXml(sheet: XlsxSheet, selected: boolean): string {
  const rows = sheet.freeze?.rows ?? 0;
  const columns = sheet.freeze?.columns ?? 0;
  const open = `<sheetViews><sheetView${selected ? ' tabSelected="1"' : ""} workbookViewId="0"`;
  if (rows === 0 && columns === 0) return `${open}/></sheetViews>`;
  const pane = rows > 0 && columns > 0 ? "bottomRight" : rows > 0 ? "bottomLeft" : "topRight";
  const split = (columns > 0 ? ` xSplit="${columns}"` : "") + (rows > 0 ? ` ySplit="${rows}"` : "");
  const topLeft = `${columnLetters(columns + 1)}${rows + 1}`;
  return `${open}><pane${split} topLeftCell="${topLeft}" activePane="${pane}" state="frozen"/><selection pane="${pane}" activeCell="${topLeft}" sqref="${topLeft}"/></sheetView></sheetViews>`;
}

function colsXml(plans: readonly ColumnPlan[], widths: readonly number[], outline: ReturnType<typeof columnOutline>): string {
  const cols = plans.map((plan, c) => `<col min="${c + 1}" max="${c + 1}" width="${widths[c]}" customWidth="1"${plan.style.xf ? ` style="${plan.style.xf}"` : ""}${outline.attributes[c]}/>`);
  return `<cols>${cols.join("")}${outline.beyond}</cols>`;
}

function sheetPropertiesXml(sheet: XlsxSheet): string {
  const setup = pageSetupProperties(sheet.print);
  return setup ? `<sheetPr>${setup}</sheetPr>` : "";
}

/** Empty outlined rows: a span may reach the grid's last row, so these flush and meet the deadline like data rows. */
async function writeRows(entry: ZipEntry, rows: Iterable<string>): Promise<void> {
  for (const row of rows) {
    entry.write(row);
    if (entry.pending > FLUSH_CHARS) {
      checkDeadline("The workbook");
      await entry.flush();
    }
  }
}

function autofilterRange(sheet: XlsxSheet, lastRow: number): string | undefined {
  if (typeof sheet.autofilter === "string") return sheet.autofilter;
  if (!sheet.autofilter) return undefined;
  return `A1:${columnLetters(sheet.columns.length)}${Math.max(lastRow, 1)}`;
}

/** Row values and explicit cells together, explicit cells winning; the rare slow path. */
function mergedRowXml(rowNumber: number, values: XlsxRow | undefined, sheet: XlsxSheet, plans: readonly ColumnPlan[], letters: readonly string[], placed: readonly PlacedCell[]): string {
  const cells = new Map<number, string>();
  if (values) {
    sheet.columns.forEach((column, c) => {
      const value = columnValue(values, column, c);
      if (value !== null && value !== undefined) cells.set(c + 1, plans[c]!.write(value, letters[c]! + rowNumber, plans[c]!.styleAttr));
    });
  }
  for (const cell of placed) cells.set(cell.col, cell.write(`${columnLetters(cell.col)}${rowNumber}`));
  return [...cells].sort((a, b) => a[0] - b[0]).map(([, xml]) => xml).join("");
}

/** Where a sheet's rows are written: its columns' writers and letters, how a row opens, the explicit cells by row. */
interface RowGrid {
  sheet: XlsxSheet;
  plans: readonly ColumnPlan[];
  letters: readonly string[];
  /** Each column's key, for object rows. */
  keys: readonly string[];
  rowOpen: (rowNumber: number) => string;
  explicitCells: Map<number, PlacedCell[]>;
}

/** The parts a sheet refers to, numbered while it is written, written once its entry is closed. */
interface SheetParts {
  drawing: number | undefined;
  notes: number | undefined;
  tableNumbers: number[];
}

/** A sheet's data rows, checked as they pass: `count` of them, in batches. */
export interface SheetRowBatches {
  count: number;
  batches: AsyncIterable<readonly XlsxRow[]>;
}

export async function writeSheet(sheet: XlsxSheet, rows: SheetRowBatches, index: number, context: SheetContext): Promise<WrittenSheet> {
  const targets: CellTargets = { strings: context.sharedStrings === "never" ? null : context.strings, hyperlinks: [] };
  const sampled = await sampleAhead(rows.batches, AUTOFIT_SAMPLE_ROWS);
  const { plans, widths } = planColumns(sheet, sampled.sample, context, targets);
  const entry = await context.zip.openEntry(`xl/worksheets/sheet${index}.xml`);
  const relationships: Relationship[] = [];
  const rowOutline = new RowOutline(sheet.outline);
  const colOutline = columnOutline(sheet.outline, sheet.columns.length);
  const outlineLevels = (rowOutline.maxLevel > 0 ? ` outlineLevelRow="${rowOutline.maxLevel}"` : "") + (colOutline.maxLevel > 0 ? ` outlineLevelCol="${colOutline.maxLevel}"` : "");

  entry.write(
    `${XML_DECLARATION}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
      sheetPropertiesXml(sheet) +
      sheetViewXml(sheet, index === 1) +
      `<sheetFormatPr defaultRowHeight="15"${outlineLevels}/>` +
      colsXml(plans, widths, colOutline) +
      "<sheetData>",
  );
  const lastDataRow = await writeSheetData(entry, { sheet, rows: sampled, count: rows.count }, context, plans, targets, rowOutline);
  entry.write(sheetProtectionXml(sheet.protection, context.passwords));

  const filter = autofilterRange(sheet, lastDataRow);
  if (filter) entry.write(`<autoFilter ref="${filter}"/>`);
  if (sheet.merges.length > 0) entry.write(`<mergeCells count="${sheet.merges.length}">${sheet.merges.map((ref) => `<mergeCell ref="${ref}"/>`).join("")}</mergeCells>`);
  entry.write(conditionalFormattingXml(sheet.conditional_formats, context.styles));
  entry.write(dataValidationsXml(sheet.data_validations, context.clock));
  await writeHyperlinks(entry, targets.hyperlinks, relationships);
  entry.write(printXml(sheet.print));
  const parts = writePartReferences(entry, sheet, context, relationships);
  entry.write("</worksheet>");
  await entry.close();

  await writeSheetParts(sheet, parts, context);
  if (relationships.length > 0) await context.zip.addFile(`xl/worksheets/_rels/sheet${index}.xml.rels`, relationshipsXml(relationships));
  return { filter };
}

/** `<sheetData>`'s rows: the header, the data rows, then explicit cells below them and the outline's empty rows; returns the last data row. */
async function writeSheetData(
  entry: ZipEntry,
  { sheet, rows, count }: { sheet: XlsxSheet; rows: SampledRows; count: number },
  context: SheetContext,
  plans: readonly ColumnPlan[],
  targets: CellTargets,
  rowOutline: RowOutline,
): Promise<number> {
  const outlined = !rowOutline.empty;
  const rowOpen = (rowNumber: number) => (outlined ? `<row r="${rowNumber}"${rowOutline.attributes(rowNumber)}>` : `<row r="${rowNumber}">`);

  const explicitCells = placeExplicitCells(sheet, plans, context.styles, context.clock, targets);
  for (const [row, cells] of tableCells(sheet, context.styles)) {
    // Appended after the explicit cells and sorted stably, so a table's own cell wins its place.
    explicitCells.set(row, [...(explicitCells.get(row) ?? []), ...cells].sort((a, b) => a.col - b.col));
  }
  const headerRows = hasHeaderRow(sheet) ? 1 : 0;
  const grid: RowGrid = { sheet, plans, letters: sheet.columns.map((_, c) => columnLetters(c + 1)), keys: sheet.columns.map((column) => column.key), rowOpen, explicitCells };
  if (headerRows === 1) entry.write(headerRowXml(grid, context));
  await writeDataRows(entry, grid, rows.all, headerRows);

  const lastDataRow = headerRows + count;
  for (const rowNumber of [...explicitCells.keys()].filter((r) => r > lastDataRow).sort((a, b) => a - b)) {
    if (outlined) await writeRows(entry, rowOutline.rowsBefore(rowNumber));
    entry.write(`${rowOpen(rowNumber)}${mergedRowXml(rowNumber, undefined, sheet, plans, grid.letters, explicitCells.get(rowNumber)!)}</row>`);
    if (entry.pending > FLUSH_CHARS) await entry.flush();
  }
  if (outlined) await writeRows(entry, rowOutline.rowsBefore(Infinity));
  entry.write("</sheetData>");
  return lastDataRow;
}

function headerRowXml({ sheet, letters, rowOpen, explicitCells }: RowGrid, context: SheetContext): string {
  const headerStyle = styleAttribute(context.styles.cellStyle(sheet.header_style, undefined, undefined).xf);
  const placed = explicitCells.get(1);
  const header = sheet.columns.map((column, c) => (column.header === undefined ? (headerStyle ? `<c r="${letters[c]}1"${headerStyle}/>` : "") : stringCell(column.header, `${letters[c]}1`, headerStyle, null)));
  if (!placed) return `${rowOpen(1)}${header.join("")}</row>`;
  const cells = new Map(header.map((xml, c) => [c + 1, xml]));
  for (const cell of placed) cells.set(cell.col, cell.write(`${columnLetters(cell.col)}1`));
  return `${rowOpen(1)}${[...cells].sort((a, b) => a[0] - b[0]).map(([, xml]) => xml).join("")}</row>`;
}

/** The request's rows, the hot loop, a batch at a time as they are read. */
async function writeDataRows(entry: ZipEntry, grid: RowGrid, batches: AsyncIterable<readonly XlsxRow[]>, headerRows: number): Promise<void> {
  let rowNumber = headerRows;
  for await (const rows of batches) {
    for (let i = 0; i < rows.length; i++) {
      entry.write(dataRowXml(grid, ++rowNumber, rows[i]!));
      if (entry.pending > FLUSH_CHARS) {
        // Between flushes: work in the main process stops at its deadline between steps.
        checkDeadline("The workbook");
        await entry.flush();
      }
    }
  }
}

/** A row without explicit cells writes its values straight through. */
function dataRowXml({ sheet, plans, letters, keys, rowOpen, explicitCells }: RowGrid, rowNumber: number, values: XlsxRow): string {
  const columnCount = keys.length;
  const placed = explicitCells.get(rowNumber);
  let xml = rowOpen(rowNumber);
  // The row number as text once, not once per cell.
  const rowText = String(rowNumber);
  if (placed) {
    xml += mergedRowXml(rowNumber, values, sheet, plans, letters, placed);
  } else if (Array.isArray(values)) {
    const n = values.length < columnCount ? values.length : columnCount;
    for (let c = 0; c < n; c++) {
      const value = values[c];
      if (value !== null && value !== undefined) xml += plans[c]!.write(value, letters[c]! + rowText, plans[c]!.styleAttr);
    }
  } else {
    for (let c = 0; c < columnCount; c++) {
      const value = values[keys[c]!];
      if (value !== null && value !== undefined) xml += plans[c]!.write(value, letters[c]! + rowText, plans[c]!.styleAttr);
    }
  }
  return `${xml}</row>`;
}

async function writeHyperlinks(entry: ZipEntry, hyperlinks: CellTargets["hyperlinks"], relationships: Relationship[]): Promise<void> {
  if (hyperlinks.length === 0) return;
  entry.write("<hyperlinks>");
  for (const [ref, target] of hyperlinks) {
    const id = `rId${relationships.length + 1}`;
    relationships.push({ id, type: RELATIONSHIP_TYPES.hyperlink, target, external: true });
    entry.write(`<hyperlink ref="${ref}" r:id="${id}"/>`);
    if (entry.pending > FLUSH_CHARS) await entry.flush();
  }
  entry.write("</hyperlinks>");
}

/** The drawing, notes and tables elements; their parts are numbered here but written after the sheet's entry is closed: zip entries cannot interleave. */
function writePartReferences(entry: ZipEntry, sheet: XlsxSheet, context: SheetContext, relationships: Relationship[]): SheetParts {
  const relate = (type: string, target: string): string => {
    const id = `rId${relationships.length + 1}`;
    relationships.push({ id, type, target });
    return id;
  };
  const drawing = sheet.charts.length > 0 || sheet.images.length > 0 ? ++context.parts.drawings : undefined;
  if (drawing !== undefined) entry.write(`<drawing r:id="${relate(RELATIONSHIP_TYPES.drawing, `../drawings/drawing${drawing}.xml`)}"/>`);
  const notes = sheet.comments.length > 0 ? ++context.parts.comments : undefined;
  if (notes !== undefined) {
    relate(RELATIONSHIP_TYPES.comments, `../comments${notes}.xml`);
    entry.write(`<legacyDrawing r:id="${relate(RELATIONSHIP_TYPES.vmlDrawing, `../drawings/vmlDrawing${notes}.vml`)}"/>`);
  }
  const tableNumbers = sheet.tables.map(() => ++context.parts.tables);
  if (tableNumbers.length > 0) {
    const ids = tableNumbers.map((number) => relate(RELATIONSHIP_TYPES.table, `../tables/table${number}.xml`));
    entry.write(`<tableParts count="${ids.length}">${ids.map((id) => `<tablePart r:id="${id}"/>`).join("")}</tableParts>`);
  }
  return { drawing, notes, tableNumbers };
}

async function writeSheetParts(sheet: XlsxSheet, { drawing, notes, tableNumbers }: SheetParts, context: SheetContext): Promise<void> {
  if (drawing !== undefined) await writeDrawing(sheet, drawing, context);
  if (notes !== undefined) {
    await context.zip.addFile(`xl/comments${notes}.xml`, commentsXml(sheet.comments));
    context.parts.contentTypes.push([`/xl/comments${notes}.xml`, CONTENT_TYPES.comments]);
    await context.zip.addFile(`xl/drawings/vmlDrawing${notes}.vml`, commentsVml(sheet.comments, context.parts.vmlBlocks + 1));
    context.parts.vmlBlocks += vmlBlocks(sheet.comments.length);
  }
  for (const [t, number] of tableNumbers.entries()) {
    await context.zip.addFile(`xl/tables/table${number}.xml`, tableXml(sheet.tables[t]!, number, sheet));
    context.parts.contentTypes.push([`/xl/tables/table${number}.xml`, CONTENT_TYPES.table]);
  }
}
