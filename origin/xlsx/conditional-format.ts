// Conditional formats: cell-value comparisons with a named style, and 2- or 3-color scales.
// Compared values become formula literals: numbers as numbers, strings quoted as text, so a
// rule's value can never inject a formula.
import type { XlsxCellValueOperator, XlsxConditionalFormat } from "../../contracts/xlsx-request.ts";
import type { StyleBook } from "./named-styles.ts";
import { xmlText } from "./xml-text.ts";

const OPERATORS: Record<XlsxCellValueOperator, string> = {
  greater_than: "greaterThan",
  greater_than_or_equal: "greaterThanOrEqual",
  less_than: "lessThan",
  less_than_or_equal: "lessThanOrEqual",
  equal: "equal",
  not_equal: "notEqual",
  between: "between",
  not_between: "notBetween",
};

function formulaLiteral(value: number | string): string {
  return typeof value === "number" ? String(value) : `"${value.replace(/"/g, '""')}"`;
}

function rgb(hex: string): string {
  return `FF${hex.slice(1).toUpperCase()}`;
}

function ruleXml(format: XlsxConditionalFormat, priority: number, styles: StyleBook): string {
  if (format.type === "cell_value") {
    const formulas = format.values.map((value) => `<formula>${xmlText(formulaLiteral(value))}</formula>`).join("");
    return `<cfRule type="cellIs" dxfId="${styles.dxf(format.style)}" priority="${priority}" operator="${OPERATORS[format.operator]}">${formulas}</cfRule>`;
  }
  const cfvo = format.colors.length === 3 ? '<cfvo type="min"/><cfvo type="percentile" val="50"/><cfvo type="max"/>' : '<cfvo type="min"/><cfvo type="max"/>';
  const colors = format.colors.map((hex) => `<color rgb="${rgb(hex)}"/>`).join("");
  return `<cfRule type="colorScale" priority="${priority}"><colorScale>${cfvo}${colors}</colorScale></cfRule>`;
}

/** The sheet's `<conditionalFormatting>` elements, rules prioritised in request order. */
export function conditionalFormattingXml(formats: readonly XlsxConditionalFormat[], styles: StyleBook): string {
  return formats.map((format, i) => `<conditionalFormatting sqref="${format.range}">${ruleXml(format, i + 1, styles)}</conditionalFormatting>`).join("");
}
