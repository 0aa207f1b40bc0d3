// The sheet's `cells` by row, styled up front, so the row loop only places them (sorted by column).
import { explicitCellType, parseA1Cell, type XlsxCell, type XlsxColumnType, type XlsxSheet } from "../../contracts/xlsx-request.ts";
import { cellWriter, formulaCell, styleAttribute, typeNumberFormat, type CellTargets } from "./cell-value.ts";
import type { CellLook, StyleBook } from "./named-styles.ts";
import { textElement } from "./xml-text.ts";
import type { ZonedClock } from "./zoned-date.ts";

export interface ColumnLook {
  type: XlsxColumnType;
  style: CellLook;
}

export interface PlacedCell {
  col: number;
  /** The cell's XML at this reference. */
  write(ref: string): string;
}

// An unstyled explicit cell inside the table looks like its column when it holds the same
// kind of value (a total under an amount column); otherwise it gets its own type's format.
function explicitCellStyle(cell: XlsxCell, type: XlsxColumnType | "formula", column: ColumnLook | undefined, styles: StyleBook): CellLook {
  const typeFormat = type === "formula" ? undefined : typeNumberFormat(type);
  if (cell.style !== undefined) return styles.cellStyle(cell.style, undefined, typeFormat);
  if (column && (type === "formula" || type === column.type)) return column.style;
  return styles.cellStyle(undefined, undefined, typeFormat);
}

function placeCell(cell: XlsxCell, col: number, column: ColumnLook | undefined, styles: StyleBook, clock: ZonedClock, targets: CellTargets): PlacedCell {
  if ("formula" in cell) {
    const style = styleAttribute(explicitCellStyle(cell, "formula", column, styles).xf);
    return { col, write: (ref) => formulaCell(cell.formula, ref, style) };
  }
  if ("rich" in cell) {
    const style = styleAttribute(explicitCellStyle(cell, "string", column, styles).xf);
    const runs = cell.rich.map((run) => `<r>${run.style === undefined ? "" : styles.runProperties(run.style)}${textElement(run.text)}</r>`).join("");
    return { col, write: (ref) => `<c r="${ref}"${style} t="inlineStr"><is>${runs}</is></c>` };
  }
  const type = explicitCellType(cell);
  const style = styleAttribute(explicitCellStyle(cell, type, column, styles).xf);
  if (cell.value === null) return { col, write: (ref) => (style ? `<c r="${ref}"${style}/>` : "") };
  const write = cellWriter(type, clock, targets, false);
  const value = cell.value;
  return { col, write: (ref) => write(value, ref, style) };
}

export function placeExplicitCells(sheet: XlsxSheet, columns: readonly ColumnLook[], styles: StyleBook, clock: ZonedClock, targets: CellTargets): Map<number, PlacedCell[]> {
  const byRow = new Map<number, PlacedCell[]>();
  for (const [ref, cell] of Object.entries(sheet.cells)) {
    const { row, col } = parseA1Cell(ref);
    const placed = placeCell(cell, col, columns[col - 1], styles, clock, targets);
    const list = byRow.get(row);
    if (list) list.push(placed);
    else byRow.set(row, [placed]);
  }
  for (const list of byRow.values()) list.sort((a, b) => a.col - b.col);
  return byRow;
}
