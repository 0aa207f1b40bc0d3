// Conditional formats: cell-value comparisons, formulas, top/bottom ranks, duplicates and
// text matches with a named style (a dxf), and colour scales, data bars and icon sets.
// Compared values become formula literals: numbers as numbers, strings quoted as text, so a
// rule's value can never inject a formula.
import { CELL_VALUE_OPERATORS } from "./cell-value-operators.ts";
import { columnLetters, parseA1Range, XLSX_ICON_SETS, type XlsxConditionalFormat } from "../../contracts/xlsx-request.ts";
import type { StyleBook } from "./named-styles.ts";
import { xmlText } from "./xml-text.ts";


function formulaLiteral(value: number | string): string {
  return typeof value === "number" ? String(value) : `"${value.replace(/"/g, '""')}"`;
}

function rgb(hex: string): string {
  return `FF${hex.slice(1).toUpperCase()}`;
}

function textRule(format: Extract<XlsxConditionalFormat, { type: "text" }>, dxf: number, priority: number): string {
  const range = parseA1Range(format.range);
  const cell = `${columnLetters(range.left)}${range.top}`;
  const text = formulaLiteral(format.text);
  const [type, operator, formula] =
    format.operator === "contains"
      ? ["containsText", "containsText", `NOT(ISERROR(SEARCH(${text},${cell})))`]
      : format.operator === "not_contains"
        ? ["notContainsText", "notContains", `ISERROR(SEARCH(${text},${cell}))`]
        : format.operator === "begins_with"
          ? ["beginsWith", "beginsWith", `LEFT(${cell},LEN(${text}))=${text}`]
          : ["endsWith", "endsWith", `RIGHT(${cell},LEN(${text}))=${text}`];
  return `<cfRule type="${type}" dxfId="${dxf}" priority="${priority}" operator="${operator}" text="${xmlText(format.text)}"><formula>${xmlText(formula)}</formula></cfRule>`;
}

function ruleXml(format: XlsxConditionalFormat, priority: number, styles: StyleBook): string {
  switch (format.type) {
    case "cell_value": {
      const formulas = format.values.map((value) => `<formula>${xmlText(formulaLiteral(value))}</formula>`).join("");
      return `<cfRule type="cellIs" dxfId="${styles.dxf(format.style)}" priority="${priority}" operator="${CELL_VALUE_OPERATORS[format.operator]}">${formulas}</cfRule>`;
    }
    case "color_scale": {
      const cfvo = format.colors.length === 3 ? '<cfvo type="min"/><cfvo type="percentile" val="50"/><cfvo type="max"/>' : '<cfvo type="min"/><cfvo type="max"/>';
      const colors = format.colors.map((hex) => `<color rgb="${rgb(hex)}"/>`).join("");
      return `<cfRule type="colorScale" priority="${priority}"><colorScale>${cfvo}${colors}</colorScale></cfRule>`;
    }
    case "data_bar":
      return `<cfRule type="dataBar" priority="${priority}"><dataBar><cfvo type="min"/><cfvo type="max"/><color rgb="${rgb(format.color)}"/></dataBar></cfRule>`;
    case "icon_set": {
      // The set's name starts with its icon count; the thresholds split 0..100 evenly.
      const count = Number(format.icons[0]);
      const cfvo = Array.from({ length: count }, (_, i) => `<cfvo type="percent" val="${Math.round((i * 100) / count)}"/>`).join("");
      return `<cfRule type="iconSet" priority="${priority}"><iconSet iconSet="${XLSX_ICON_SETS[format.icons]}"${format.reverse ? ' reverse="1"' : ""}>${cfvo}</iconSet></cfRule>`;
    }
    case "formula": {
      const formula = format.formula.startsWith("=") ? format.formula.slice(1) : format.formula;
      return `<cfRule type="expression" dxfId="${styles.dxf(format.style)}" priority="${priority}"><formula>${xmlText(formula)}</formula></cfRule>`;
    }
    case "top":
    case "bottom":
      return `<cfRule type="top10" dxfId="${styles.dxf(format.style)}" priority="${priority}" rank="${format.rank}"${format.percent ? ' percent="1"' : ""}${format.type === "bottom" ? ' bottom="1"' : ""}/>`;
    case "duplicate":
    case "unique":
      return `<cfRule type="${format.type === "duplicate" ? "duplicateValues" : "uniqueValues"}" dxfId="${styles.dxf(format.style)}" priority="${priority}"/>`;
    case "text":
      return textRule(format, styles.dxf(format.style), priority);
  }
}

/** The sheet's `<conditionalFormatting>` elements, rules prioritised in request order. */
export function conditionalFormattingXml(formats: readonly XlsxConditionalFormat[], styles: StyleBook): string {
  return formats.map((format, i) => `<conditionalFormatting sqref="${format.range}">${ruleXml(format, i + 1, styles)}</conditionalFormatting>`).join("");
}
