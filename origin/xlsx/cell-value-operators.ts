// SpreadsheetML's spelling of the API's comparison operators: validations and conditional formats
// write the same `operator` attribute.
import type { XlsxCellValueOperator } from "../../contracts/xlsx-request.ts";

export const CELL_VALUE_OPERATORS: Record<XlsxCellValueOperator, string> = {
  greater_than: "greaterThan",
  greater_than_or_equal: "greaterThanOrEqual",
  less_than: "lessThan",
  less_than_or_equal: "lessThanOrEqual",
  equal: "equal",
  not_equal: "notEqual",
  between: "between",
  not_between: "notBetween",
};
