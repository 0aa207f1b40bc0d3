// SheetJS types a worksheet's members as `any` (its cells beside its "!" keys); a test reads them
// through this, as cells, checked.
import type { CellObject, WorkSheet } from "xlsx";

function isCell(value: unknown): value is CellObject {
  return typeof value === "object" && value !== null && "t" in value;
}

/** The sheet's cells by address (A1 style); the "!" keys (ranges, merges, columns) are not cells. */
export function cellsOf(sheet: WorkSheet): Partial<Record<string, CellObject>> {
  const cells: Partial<Record<string, CellObject>> = {};
  for (const address of Object.keys(sheet)) {
    const value: unknown = sheet[address];
    if (!address.startsWith("!") && isCell(value)) cells[address] = value;
  }
  return cells;
}
