// List validations: a dropdown of literal values (the contract keeps them free of commas and
// quotes, and within Excel's 255 characters).
import type { XlsxDataValidation } from "../../contracts/xlsx-request.ts";
import { attribute, xmlText } from "./xml-text.ts";

function validationXml(validation: XlsxDataValidation): string {
  const attrs =
    ` type="list"` +
    attribute("allowBlank", validation.allow_blank || undefined) +
    attribute("showInputMessage", validation.prompt !== undefined || undefined) +
    ' showErrorMessage="1"' +
    attribute("error", validation.error_message) +
    attribute("prompt", validation.prompt) +
    ` sqref="${validation.range}"`;
  return `<dataValidation${attrs}><formula1>${xmlText(`"${validation.values.join(",")}"`)}</formula1></dataValidation>`;
}

export function dataValidationsXml(validations: readonly XlsxDataValidation[]): string {
  if (validations.length === 0) return "";
  return `<dataValidations count="${validations.length}">${validations.map(validationXml).join("")}</dataValidations>`;
}
