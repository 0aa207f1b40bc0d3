// Streams one sheet: header row, data rows, explicit cells and merges in row order, each
// row committed as soon as no merge still needs it. Widths, views, the autofilter,
// validations and conditional formats are set up front (exceljs writes them around the rows).
import type { DataValidation, Row, stream, Worksheet, WorksheetView } from "exceljs";
import { columnLetters, hasHeaderRow, type XlsxCellValue, type XlsxColumn, type XlsxSheet } from "../../contracts/xlsx-request.ts";
import { AUTOFIT_SAMPLE_ROWS, estimateColumnWidth } from "./autofit.ts";
import { cellConverter, typeNumberFormat, type CellConverter } from "./cell-value.ts";
import { toExcelConditionalFormat } from "./conditional-format.ts";
import { toExcelValidation } from "./data-validation.ts";
import { placeExplicitCells, type ColumnLook } from "./explicit-cells.ts";
import { createMergePlan } from "./merge-plan.ts";
import type { StyleBook } from "./named-styles.ts";
import type { Pacer } from "./output-pacing.ts";
import type { ZonedClock } from "./zoned-date.ts";

export interface SheetContext {
  styles: StyleBook;
  clock: ZonedClock;
  pacer: Pacer;
}

interface ColumnPlan extends ColumnLook {
  convert: CellConverter;
}

// exceljs's typings omit the streaming sheet's `dataValidations`, which it does write.
interface StreamedWorksheet extends Worksheet {
  dataValidations: { add(range: string, validation: DataValidation): void };
}

function columnValue(row: XlsxSheet["rows"][number], column: XlsxColumn, index: number): XlsxCellValue | undefined {
  return Array.isArray(row) ? row[index] : row[column.key];
}

function* columnSample(sheet: XlsxSheet, column: XlsxColumn, index: number): Generator<XlsxCellValue> {
  const end = Math.min(sheet.rows.length, AUTOFIT_SAMPLE_ROWS);
  for (let r = 0; r < end; r++) yield columnValue(sheet.rows[r]!, column, index) ?? null;
}

function planColumns(sheet: XlsxSheet, context: SheetContext): { plans: ColumnPlan[]; widths: number[] } {
  const plans: ColumnPlan[] = [];
  const widths: number[] = [];
  sheet.columns.forEach((column, c) => {
    const style = context.styles.cellStyle(column.style, column.format, typeNumberFormat(column.type));
    plans.push({ type: column.type, convert: cellConverter(column.type, context.clock), style });
    widths.push(column.width ?? estimateColumnWidth(column, columnSample(sheet, column, c), style.numFmt));
  });
  return { plans, widths };
}

function freezeViews(sheet: XlsxSheet): Partial<WorksheetView>[] {
  const rows = sheet.freeze?.rows ?? 0;
  const columns = sheet.freeze?.columns ?? 0;
  if (rows === 0 && columns === 0) return [];
  return [{ state: "frozen", xSplit: columns, ySplit: rows, topLeftCell: `${columnLetters(columns + 1)}${rows + 1}` }];
}

function autofilterRange(sheet: XlsxSheet, lastRow: number): string | undefined {
  if (typeof sheet.autofilter === "string") return sheet.autofilter;
  if (!sheet.autofilter) return undefined;
  return `A1:${columnLetters(sheet.columns.length)}${Math.max(lastRow, 1)}`;
}

export async function writeSheet(workbook: stream.xlsx.WorkbookWriter, sheet: XlsxSheet, context: SheetContext): Promise<void> {
  const { plans, widths } = planColumns(sheet, context);
  const worksheet = workbook.addWorksheet(sheet.name, { views: freezeViews(sheet) }) as StreamedWorksheet;
  worksheet.columns = plans.map((plan, c) => ({ width: widths[c], style: plan.style }));

  const headerRows = hasHeaderRow(sheet) ? 1 : 0;
  const lastDataRow = headerRows + sheet.rows.length;
  const filter = autofilterRange(sheet, lastDataRow);
  if (filter) worksheet.autoFilter = filter;
  for (const validation of sheet.data_validations) worksheet.dataValidations.add(validation.range, toExcelValidation(validation));
  for (const format of sheet.conditional_formats) worksheet.addConditionalFormatting(toExcelConditionalFormat(format, context.styles));

  const explicitCells = placeExplicitCells(sheet, plans, context.styles, context.clock);
  const merges = createMergePlan(sheet.merges);
  const headerStyle = context.styles.cellStyle(sheet.header_style, undefined, undefined);

  const fillHeader = (row: Row) => {
    sheet.columns.forEach((column, c) => {
      const cell = row.getCell(c + 1);
      cell.value = column.header ?? null;
      cell.style = headerStyle;
    });
  };
  const fillData = (row: Row, values: XlsxSheet["rows"][number]) => {
    sheet.columns.forEach((column, c) => {
      const value = columnValue(values, column, c);
      if (value === null || value === undefined) return;
      const plan = plans[c]!;
      const cell = row.getCell(c + 1);
      cell.value = plan.convert(value);
      // The shared object, not a copy: see named-styles.ts.
      cell.style = plan.style;
    });
  };
  const visit = (rowNumber: number) => {
    const row = worksheet.getRow(rowNumber);
    if (rowNumber <= headerRows) fillHeader(row);
    else if (rowNumber <= lastDataRow) fillData(row, sheet.rows[rowNumber - headerRows - 1]!);
    for (const placed of explicitCells.get(rowNumber) ?? []) {
      const cell = row.getCell(placed.col);
      cell.value = placed.value;
      cell.style = placed.style;
    }
    for (const range of merges.endingAt(rowNumber)) worksheet.mergeCells(range.top, range.left, range.bottom, range.right);
    if (!merges.holds(rowNumber)) row.commit();
  };

  const columnCount = sheet.columns.length;
  for (let r = 1; r <= lastDataRow; r++) {
    visit(r);
    const pause = context.pacer.wrote(columnCount);
    if (pause) await pause;
  }
  const laterRows = [...new Set([...explicitCells.keys(), ...merges.lastRows])].filter((r) => r > lastDataRow).sort((a, b) => a - b);
  for (const r of laterRows) {
    visit(r);
    const pause = context.pacer.wrote(explicitCells.get(r)?.length ?? 1);
    if (pause) await pause;
  }
  worksheet.commit();
}
