// List validations: a dropdown of literal values (the contract keeps them free of commas and
// quotes, and within Excel's 255 characters).
import type { DataValidation } from "exceljs";
import type { XlsxDataValidation } from "../../contracts/xlsx-request.ts";

export function toExcelValidation(validation: XlsxDataValidation): DataValidation {
  return {
    type: "list",
    allowBlank: validation.allow_blank,
    formulae: [`"${validation.values.join(",")}"`],
    showErrorMessage: true,
    ...(validation.error_message !== undefined && { error: validation.error_message, errorStyle: "stop" }),
    ...(validation.prompt !== undefined && { showInputMessage: true, prompt: validation.prompt }),
  };
}
