// Data validations: a dropdown list of literal values (the contract keeps them free of commas
// and quotes, within Excel's 255 characters), comparisons of whole numbers, decimals, dates,
// times and text lengths, and custom formulas. Dates and times become the serials Excel compares.
import { CELL_VALUE_OPERATORS } from "./cell-value-operators.ts";
import { parseIsoDateTime, type XlsxDataValidation } from "../../contracts/xlsx-request.ts";
import { attribute, xmlText } from "./xml-text.ts";
import { excelSerial, type ZonedClock } from "./zoned-date.ts";


const TYPES = { whole: "whole", decimal: "decimal", text_length: "textLength", date: "date", time: "time" } as const;

function timeFraction(text: string): number {
  const [h, m, s] = text.split(":").map(Number);
  return (h! * 3600 + m! * 60 + (s ?? 0)) / 86_400;
}

function formulas(validation: XlsxDataValidation, clock: ZonedClock): string[] {
  switch (validation.type) {
    case "list":
      return [`"${validation.values.join(",")}"`];
    case "custom":
      return [validation.formula.startsWith("=") ? validation.formula.slice(1) : validation.formula];
    case "date":
      return validation.values.map((value) => String(Math.floor(excelSerial(parseIsoDateTime(value, false)!, clock))));
    case "time":
      return validation.values.map((value) => String(timeFraction(value)));
    default:
      return validation.values.map(String);
  }
}

function validationXml(validation: XlsxDataValidation, clock: ZonedClock): string {
  const type = validation.type === "list" || validation.type === "custom" ? validation.type : TYPES[validation.type];
  const operator = "operator" in validation && validation.operator !== "between" ? CELL_VALUE_OPERATORS[validation.operator] : undefined;
  const attrs =
    ` type="${type}"` +
    attribute("operator", operator) +
    attribute("allowBlank", validation.allow_blank || undefined) +
    attribute("showInputMessage", validation.prompt !== undefined || undefined) +
    ' showErrorMessage="1"' +
    attribute("error", validation.error_message) +
    attribute("prompt", validation.prompt) +
    ` sqref="${validation.range}"`;
  const [first, second] = formulas(validation, clock);
  return `<dataValidation${attrs}><formula1>${xmlText(first!)}</formula1>${second !== undefined ? `<formula2>${xmlText(second)}</formula2>` : ""}</dataValidation>`;
}

export function dataValidationsXml(validations: readonly XlsxDataValidation[], clock: ZonedClock): string {
  if (validations.length === 0) return "";
  return `<dataValidations count="${validations.length}">${validations.map((validation) => validationXml(validation, clock)).join("")}</dataValidations>`;
}
