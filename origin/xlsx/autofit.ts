// Column widths must be known when a streamed sheet starts (they precede the rows in the
// XML), so autofit estimates from the header and the first rows instead of measuring all.
import type { XlsxCellValue, XlsxColumn } from "../../contracts/xlsx-request.ts";

export const AUTOFIT_SAMPLE_ROWS = 1_000;
const MIN_WIDTH = 6;
const MAX_WIDTH = 80;
// Room for cell padding and the autofilter button.
const PADDING = 2;
const BOOLEAN_CHARS = "FALSE".length;

interface NumberShape {
  decimals: number;
  grouped: boolean;
  /** Characters the format adds around the digits: currency symbols, `%`, literal text. */
  extra: number;
  percent: boolean;
}

// Reads enough of an Excel number format to size its output; only the first (positive) section.
function numberShape(numFmt: string): NumberShape {
  const section = (numFmt.split(";")[0] ?? "")
    .replace(/\[\$([^-\]]*)[^\]]*\]/g, "$1")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/"([^"]*)"/g, "$1")
    .replace(/[\\_*]./g, (m) => (m[0] === "\\" ? m[1]! : " "));
  const decimals = /\.([0#?]+)/.exec(section)?.[1]?.length ?? 0;
  return { decimals, grouped: section.includes(","), extra: section.replace(/[0#?.,]/g, "").length, percent: section.includes("%") };
}

function numberMeasure(numFmt: string | undefined): (value: number) => number {
  if (numFmt === undefined) return (value) => String(value).length;
  const shape = numberShape(numFmt);
  const fraction = shape.decimals > 0 ? shape.decimals + 1 : 0;
  return (value) => {
    const shown = shape.percent ? value * 100 : value;
    const digits = Math.abs(Math.trunc(shown)).toString().length;
    const separators = shape.grouped ? Math.floor((digits - 1) / 3) : 0;
    return (shown < 0 ? 1 : 0) + digits + separators + fraction + shape.extra;
  };
}

function longestLine(text: string): number {
  let longest = 0;
  for (const line of text.split("\n")) longest = Math.max(longest, line.length);
  return longest;
}

/** Characters each value of the column takes when shown with the column's number format. */
function valueMeasure(column: XlsxColumn, numFmt: string | undefined): (value: XlsxCellValue) => number {
  const numbers = numberMeasure(numFmt);
  // A date shows as wide as its format, whatever the date.
  const dateChars = (column.type === "date" || column.type === "datetime") && numFmt ? numFmt.replace(/[\\"]/g, "").length : undefined;
  return (value) => {
    if (value === null) return 0;
    if (typeof value === "boolean") return BOOLEAN_CHARS;
    if (typeof value === "number") return numbers(value);
    return dateChars ?? longestLine(value);
  };
}

/** Width in characters from the header (often bold, so a little wider) and the sampled values. */
export function estimateColumnWidth(column: XlsxColumn, sample: Iterable<XlsxCellValue>, numFmt: string | undefined): number {
  const measure = valueMeasure(column, numFmt);
  let widest = Math.ceil((column.header?.length ?? 0) * 1.1);
  for (const value of sample) widest = Math.max(widest, measure(value));
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + PADDING));
}
