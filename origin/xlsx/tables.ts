// Excel tables: the table part (range, columns, totals functions, style) and the cells the
// table needs in the sheet. A table's header cells must hold its column names and its totals
// row the SUBTOTAL formulas its columns declare, so the writer places both itself, over
// whatever row values or explicit cells would have been there.
import { columnLetters, parseA1Range, type XlsxSheet } from "../../contracts/xlsx-request.ts";
import { tableHeaders, type XlsxTable, type XlsxTableTotal } from "../../contracts/xlsx-features.ts";
import { formulaCell, stringCell, styleAttribute } from "./cell-value.ts";
import type { PlacedCell } from "./explicit-cells.ts";
import type { StyleBook } from "./named-styles.ts";
import { attribute, XML_DECLARATION, xmlText } from "./xml-text.ts";

const TOTALS: Record<XlsxTableTotal, { code: number; name: string }> = {
  average: { code: 101, name: "average" },
  count_nums: { code: 102, name: "countNums" },
  count: { code: 103, name: "count" },
  max: { code: 104, name: "max" },
  min: { code: 105, name: "min" },
  std_dev: { code: 107, name: "stdDev" },
  sum: { code: 109, name: "sum" },
  var: { code: 110, name: "var" },
};

// Structured references escape `[`, `]`, `#` and `'` with a `'`.
function structuredColumn(name: string): string {
  return name.replace(/[[\]#']/g, "'$&");
}

/** Header and totals cells of the sheet's tables, by row. */
export function tableCells(sheet: XlsxSheet, styles: StyleBook): Map<number, PlacedCell[]> {
  const byRow = new Map<number, PlacedCell[]>();
  const add = (row: number, cell: PlacedCell) => byRow.set(row, [...(byRow.get(row) ?? []), cell]);
  const headerStyle = styleAttribute(styles.cellStyle(sheet.header_style, undefined, undefined).xf);
  for (const table of sheet.tables) {
    const range = parseA1Range(table.range);
    const headers = tableHeaders(table, sheet.columns);
    headers.forEach((header, i) => add(range.top, { col: range.left + i, write: (ref) => stringCell(header, ref, headerStyle, null) }));
    if (!table.totals_row) continue;
    table.columns?.forEach((column, i) => {
      const col = range.left + i;
      const style = styleAttribute(styles.cellStyle(sheet.columns[col - 1]?.style, sheet.columns[col - 1]?.format, undefined).xf);
      if (column.total_label !== undefined) {
        const label = column.total_label;
        add(range.bottom, { col, write: (ref) => stringCell(label, ref, style, null) });
      } else if (column.total !== undefined) {
        const formula = `SUBTOTAL(${TOTALS[column.total].code},${table.name}[${structuredColumn(headers[i]!)}])`;
        add(range.bottom, { col, write: (ref) => formulaCell(formula, ref, style) });
      }
    });
  }
  return byRow;
}

export function tableXml(table: XlsxTable, id: number, sheet: XlsxSheet): string {
  const range = parseA1Range(table.range);
  const headers = tableHeaders(table, sheet.columns);
  const filterBottom = table.totals_row ? range.bottom - 1 : range.bottom;
  const columns = headers
    .map((header, i) => {
      const column = table.columns?.[i];
      const total = column?.total !== undefined ? attribute("totalsRowFunction", TOTALS[column.total].name) : attribute("totalsRowLabel", column?.total_label);
      return `<tableColumn id="${i + 1}" name="${xmlText(header)}"${total}/>`;
    })
    .join("");
  return (
    `${XML_DECLARATION}<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="${id}" name="${xmlText(table.name)}" displayName="${xmlText(table.name)}" ref="${table.range}"` +
    (table.totals_row ? ' totalsRowCount="1"' : ' totalsRowShown="0"') +
    `><autoFilter ref="${columnLetters(range.left)}${range.top}:${columnLetters(range.right)}${filterBottom}"/>` +
    `<tableColumns count="${headers.length}">${columns}</tableColumns>` +
    `<tableStyleInfo name="${table.style}" showFirstColumn="0" showLastColumn="0" showRowStripes="${table.banded_rows ? 1 : 0}" showColumnStripes="${table.banded_columns ? 1 : 0}"/></table>`
  );
}
