// Request values to exceljs cell values, by column type. Values were checked against their
// type by assertXlsxWritable before any work, so conversion never fails half-way through a
// stream. Strings are always written as text cells: a value starting with `=`, `+`, `-` or
// `@` is stored as the literal text, never evaluated (formulas come only from `formula` cells).
import type { CellValue } from "exceljs";
import { hyperlinkTarget, parseIsoDateTime, type XlsxCellValue, type XlsxColumnType } from "../../contracts/xlsx-request.ts";
import { excelSerial, type ZonedClock } from "./zoned-date.ts";

export type CellConverter = (value: XlsxCellValue) => CellValue;

const TYPE_NUMBER_FORMATS: Record<XlsxColumnType, string | undefined> = {
  string: undefined,
  url: undefined,
  boolean: undefined,
  number: undefined,
  integer: "0",
  percent: "0.00%",
  currency: "#,##0.00",
  date: "yyyy-mm-dd",
  datetime: "yyyy-mm-dd hh:mm:ss",
};

/** The number format a type shows with when neither the column nor its style sets one. */
export function typeNumberFormat(type: XlsxColumnType): string | undefined {
  return TYPE_NUMBER_FORMATS[type];
}

function dateSerial(text: string, dateOnly: boolean, clock: ZonedClock): number {
  const parsed = parseIsoDateTime(text, dateOnly);
  if (!parsed) throw new Error(`unchecked ${dateOnly ? "date" : "datetime"} value: ${text}`);
  return excelSerial(parsed, clock);
}

function urlValue(text: string): CellValue {
  const target = hyperlinkTarget(text);
  return target === null ? text : { text, hyperlink: target };
}

const asIs: CellConverter = (value) => value;

export function cellConverter(type: XlsxColumnType, clock: ZonedClock): CellConverter {
  switch (type) {
    case "date":
    case "datetime": {
      const dateOnly = type === "date";
      return (value) => (value === null ? null : dateSerial(value as string, dateOnly, clock));
    }
    case "url":
      return (value) => (value === null ? null : urlValue(value as string));
    default:
      return asIs;
  }
}

/** A formula cell; the leading `=` is optional in requests and absent in the file. */
export function formulaValue(formula: string): CellValue {
  return { formula: formula.startsWith("=") ? formula.slice(1) : formula, date1904: false };
}
