// Request values to SpreadsheetML cells, by column type. Each row was checked against its
// columns' types on its way here (sheet-rows.ts, the edge's own check) and one that failed comes
// empty, so conversion never fails half-way through a stream. Strings are always written as text cells: a value starting with `=`, `+`, `-` or
// `@` is stored as the literal text, never evaluated (formulas come only from `formula` cells).
import { hyperlinkTarget, parseIsoDateTime, type XlsxCellValue, type XlsxColumnType } from "../../contracts/xlsx-request.ts";
import type { SharedStrings } from "./shared-strings.ts";
import { numberText } from "./number-text.ts";
import { textElement, xmlText } from "./xml-text.ts";
import { excelSerial, type ZonedClock } from "./zoned-date.ts";

/** A cell's XML from its value, reference (`B7`) and style attribute (` s="3"` or empty). */
export type CellWriter = (value: XlsxCellValue, ref: string, style: string) => string;

/** Where cells put what lives outside them. */
export interface CellTargets {
  /** Null when every string is written inline. */
  strings: SharedStrings | null;
  /** Hyperlinks in the order their cells were written: cell reference and target. */
  hyperlinks: [string, string][];
}

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

export function styleAttribute(xf: number): string {
  return xf === 0 ? "" : ` s="${xf}"`;
}

export function stringCell(text: string, ref: string, style: string, strings: SharedStrings | null): string {
  const id = strings?.index(text);
  if (id !== undefined) return `<c r="${ref}"${style} t="s"><v>${id}</v></c>`;
  return `<c r="${ref}"${style} t="inlineStr"><is>${textElement(text)}</is></c>`;
}

export function numberCell(value: number, ref: string, style: string): string {
  return `<c r="${ref}"${style}><v>${numberText(value)}</v></c>`;
}

function dateSerial(text: string, dateOnly: boolean, clock: ZonedClock): number {
  const parsed = parseIsoDateTime(text, dateOnly);
  if (!parsed) throw new Error(`unchecked ${dateOnly ? "date" : "datetime"} value: ${text}`);
  return excelSerial(parsed, clock);
}

/** Writes non-null values of one type; `shared` says whether its strings go to the table. */
export function cellWriter(type: XlsxColumnType, clock: ZonedClock, targets: CellTargets, shared: boolean): CellWriter {
  const strings = shared ? targets.strings : null;
  switch (type) {
    case "date":
    case "datetime": {
      const dateOnly = type === "date";
      return (value, ref, style) => numberCell(dateSerial(value as string, dateOnly, clock), ref, style);
    }
    case "boolean":
      return (value, ref, style) => `<c r="${ref}"${style} t="b"><v>${value ? 1 : 0}</v></c>`;
    case "url":
      return (value, ref, style) => {
        const target = hyperlinkTarget(value as string);
        if (target !== null) targets.hyperlinks.push([ref, target]);
        return stringCell(value as string, ref, style, strings);
      };
    case "string":
      return (value, ref, style) => stringCell(value as string, ref, style, strings);
    default:
      return (value, ref, style) => numberCell(value as number, ref, style);
  }
}

/** A formula cell; the leading `=` is optional in requests and absent in the file. */
export function formulaCell(formula: string, ref: string, style: string): string {
  return `<c r="${ref}"${style}><f>${xmlText(formula.startsWith("=") ? formula.slice(1) : formula)}</f></c>`;
}
