// The sheet's `cells` by row, converted and styled up front, so the row loop only places them.
import type { CellValue } from "exceljs";
import { explicitCellType, parseA1Cell, type XlsxCell, type XlsxColumnType, type XlsxSheet } from "../../contracts/xlsx-request.ts";
import { cellConverter, formulaValue, typeNumberFormat } from "./cell-value.ts";
import type { CellStyle, StyleBook } from "./named-styles.ts";
import type { ZonedClock } from "./zoned-date.ts";

export interface ColumnLook {
  type: XlsxColumnType;
  style: CellStyle;
}

export interface PlacedCell {
  col: number;
  value: CellValue;
  style: CellStyle;
}

// An unstyled explicit cell inside the table looks like its column when it holds the same
// kind of value (a total under an amount column); otherwise it gets its own type's format.
function explicitCellStyle(cell: XlsxCell, type: XlsxColumnType | "formula", column: ColumnLook | undefined, styles: StyleBook): CellStyle {
  const typeFormat = type === "formula" ? undefined : typeNumberFormat(type);
  if (cell.style !== undefined) return styles.cellStyle(cell.style, undefined, typeFormat);
  if (column && (type === "formula" || type === column.type)) return column.style;
  return styles.cellStyle(undefined, undefined, typeFormat);
}

export function placeExplicitCells(sheet: XlsxSheet, columns: readonly ColumnLook[], styles: StyleBook, clock: ZonedClock): Map<number, PlacedCell[]> {
  const byRow = new Map<number, PlacedCell[]>();
  for (const [ref, cell] of Object.entries(sheet.cells)) {
    const { row, col } = parseA1Cell(ref);
    let placed: PlacedCell;
    if ("formula" in cell) {
      placed = { col, value: formulaValue(cell.formula), style: explicitCellStyle(cell, "formula", columns[col - 1], styles) };
    } else {
      const type = explicitCellType(cell);
      placed = { col, value: cellConverter(type, clock)(cell.value), style: explicitCellStyle(cell, type, columns[col - 1], styles) };
    }
    byRow.set(row, [...(byRow.get(row) ?? []), placed]);
  }
  return byRow;
}
