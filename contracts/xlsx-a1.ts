// A1 references: cells, ranges, and ranges qualified by a sheet in Excel's own spelling
// (`'Sales 2025'!A2:A5`, `Data!B2:B9`). Shared by the request checks and the origin writer.
export const EXCEL_MAX_ROWS = 1_048_576;
export const EXCEL_MAX_COLUMNS = 16_384;

export const A1_CELL = /^([A-Z]{1,3})([1-9][0-9]{0,6})$/;
export const A1_RANGE = /^([A-Z]{1,3})([1-9][0-9]{0,6})(?::([A-Z]{1,3})([1-9][0-9]{0,6}))?$/;
/** An optional sheet (quoted with `'`, inner quotes doubled, or bare) then `!`, then an A1 range; `$` anchors allowed. */
export const SHEET_RANGE = /^(?:(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_.]*))!)?\$?([A-Z]{1,3})\$?([1-9][0-9]{0,6})(?::\$?([A-Z]{1,3})\$?([1-9][0-9]{0,6}))?$/;

export interface CellAddress {
  row: number;
  col: number;
}

export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i++) n = n * 26 + letters.charCodeAt(i) - 64;
  return n;
}

export function columnLetters(col: number): string {
  let letters = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Parses a reference the schema accepted; the numbers may still exceed Excel's grid. */
export function parseA1Cell(ref: string): CellAddress {
  const m = A1_CELL.exec(ref);
  if (!m) throw new Error(`not an A1 cell: ${ref}`);
  return { col: columnNumber(m[1]!), row: Number(m[2]) };
}

function normalised(c1: number, r1: number, c2: number, r2: number): CellRange {
  return { top: Math.min(r1, r2), left: Math.min(c1, c2), bottom: Math.max(r1, r2), right: Math.max(c1, c2) };
}

/** Parses a range the schema accepted, normalised so top-left comes first. */
export function parseA1Range(ref: string): CellRange {
  const m = A1_RANGE.exec(ref);
  if (!m) throw new Error(`not an A1 range: ${ref}`);
  const c1 = columnNumber(m[1]!);
  const r1 = Number(m[2]);
  return normalised(c1, r1, m[3] ? columnNumber(m[3]) : c1, m[4] ? Number(m[4]) : r1);
}

export function rangeWithinGrid(range: CellRange): boolean {
  return range.bottom <= EXCEL_MAX_ROWS && range.right <= EXCEL_MAX_COLUMNS;
}

export interface SheetRange {
  /** The sheet named, or undefined for the sheet the reference sits on. */
  sheet: string | undefined;
  range: CellRange;
}

/** Parses a reference the schema accepted (SHEET_RANGE). */
export function parseSheetRange(ref: string): SheetRange {
  const m = SHEET_RANGE.exec(ref);
  if (!m) throw new Error(`not a sheet range: ${ref}`);
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2];
  const c1 = columnNumber(m[3]!);
  const r1 = Number(m[4]);
  return { sheet, range: normalised(c1, r1, m[5] ? columnNumber(m[5]) : c1, m[6] ? Number(m[6]) : r1) };
}

/** `$A$2:$A$5`, as formulas in charts and defined names spell a fixed range. */
export function absoluteRange(range: CellRange): string {
  const first = `$${columnLetters(range.left)}$${range.top}`;
  return range.top === range.bottom && range.left === range.right ? first : `${first}:$${columnLetters(range.right)}$${range.bottom}`;
}

/** `'Sales 2025'!$A$2:$A$5`. */
export function qualifiedRange(sheet: string, range: CellRange): string {
  return `'${sheet.replace(/'/g, "''")}'!${absoluteRange(range)}`;
}

export function rangesOverlap(a: CellRange, b: CellRange): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
}

/** A span of whole rows, `2:10` (or one row, `5`). */
export const ROW_SPAN = /^([1-9][0-9]{0,6})(?::([1-9][0-9]{0,6}))?$/;
/** A span of whole columns, `B:D` (or one column, `C`). */
export const COLUMN_SPAN = /^([A-Z]{1,3})(?::([A-Z]{1,3}))?$/;

/** First and last row or column of a span, in order. */
export interface Span {
  first: number;
  last: number;
}

/** Parses a span the schema accepted (ROW_SPAN); the numbers may exceed the grid. */
export function parseRowSpan(ref: string): Span {
  const m = ROW_SPAN.exec(ref);
  if (!m) throw new Error(`not a row span: ${ref}`);
  const a = Number(m[1]);
  const b = m[2] ? Number(m[2]) : a;
  return { first: Math.min(a, b), last: Math.max(a, b) };
}

/** Parses a span the schema accepted (COLUMN_SPAN); the numbers may exceed the grid. */
export function parseColumnSpan(ref: string): Span {
  const m = COLUMN_SPAN.exec(ref);
  if (!m) throw new Error(`not a column span: ${ref}`);
  const a = columnNumber(m[1]!);
  const b = m[2] ? columnNumber(m[2]) : a;
  return { first: Math.min(a, b), last: Math.max(a, b) };
}
