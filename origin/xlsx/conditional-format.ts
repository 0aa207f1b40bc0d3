// Conditional formats: cell-value comparisons with a named style, and 2- or 3-color scales.
// Compared values become formula literals: numbers as numbers, strings quoted as text, so a
// rule's value can never inject a formula.
import type { ConditionalFormattingOptions, ConditionalFormattingRule } from "exceljs";
import type { XlsxCellValueOperator, XlsxConditionalFormat } from "../../contracts/xlsx-request.ts";
import { argb, type StyleBook } from "./named-styles.ts";

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

// The casts: exceljs's typings demand a `priority` (it numbers rules in order when absent)
// and list only four of the eight cellIs operators that it writes and Excel supports.
function ruleOf(format: XlsxConditionalFormat, styles: StyleBook): ConditionalFormattingRule {
  if (format.type === "cell_value") {
    return {
      type: "cellIs",
      operator: OPERATORS[format.operator],
      formulae: format.values.map(formulaLiteral),
      style: styles.dxfStyle(format.style),
    } as ConditionalFormattingRule;
  }
  const cfvo = format.colors.length === 3 ? [{ type: "min" }, { type: "percentile", value: 50 }, { type: "max" }] : [{ type: "min" }, { type: "max" }];
  return { type: "colorScale", cfvo, color: format.colors.map((hex) => ({ argb: argb(hex) })) } as ConditionalFormattingRule;
}

export function toExcelConditionalFormat(format: XlsxConditionalFormat, styles: StyleBook): ConditionalFormattingOptions {
  return { ref: format.range, rules: [ruleOf(format, styles)] };
}
