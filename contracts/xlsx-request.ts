// The spreadsheet request (POST /v1/xlsx/generate), shared by the edge (validation, billing,
// OpenAPI, sync/async choice) and the origin engine (origin/xlsx). Two layers of checks:
// the zod schema rejects malformed shapes (400 validation_failed); `assertXlsxWritable`
// then walks every cell once, before any work or charge, and rejects values that do not
// fit their column (400 validation_failed) or that Excel cannot hold (422 xlsx_limits).
import { z } from "@hono/zod-openapi";
import { outputModeSchema } from "./envelope.ts";
import { ProblemError, type FieldError } from "./problems/catalogue.ts";
import { A1_CELL, A1_RANGE, EXCEL_MAX_COLUMNS, EXCEL_MAX_ROWS, parseA1Cell, parseA1Range, rangeWithinGrid, type CellRange } from "./xlsx-a1.ts";

import { checkFeatures, xlsxChartSchema, xlsxDefinedNameSchema, xlsxTableSchema } from "./xlsx-features.ts";
import {
  checkSheetOptions,
  xlsxCommentSchema,
  xlsxImageSchema,
  xlsxOutlineSchema,
  xlsxPrintSchema,
  xlsxSheetProtectionSchema,
  xlsxWorkbookProtectionSchema,
  type XlsxImageSources,
} from "./xlsx-sheet-options.ts";

export { columnLetters, EXCEL_MAX_COLUMNS, EXCEL_MAX_ROWS, parseA1Cell, parseA1Range, type CellAddress, type CellRange } from "./xlsx-a1.ts";

export const EXCEL_MAX_CELL_CHARS = 32_767;
export const EXCEL_MAX_SHEET_NAME_CHARS = 31;
export const EXCEL_MAX_FORMULA_CHARS = 8_192;
export const EXCEL_MAX_HYPERLINKS_PER_SHEET = 65_530;
export const EXCEL_MAX_HYPERLINK_CHARS = 2_079;
export const EXCEL_MAX_LIST_CHARS = 255;
export const EXCEL_MAX_NUMBER = 9.99999999999999e307;
/** Requests up to this many cells (see `countCells`) may run synchronously; larger ones must use `mode: "async"`. */
export const XLSX_SYNC_CELL_LIMIT = 200_000;
/** The streaming writer keeps a merge's rows in memory until its last row, so a merge may span at most this many rows. */
export const XLSX_MAX_MERGE_ROWS = 10_000;
/** A rejected request lists at most this many field errors. */
export const XLSX_MAX_REPORTED_ERRORS = 100;

export const XLSX_COLUMN_TYPES = ["string", "number", "integer", "boolean", "date", "datetime", "percent", "currency", "url"] as const;
export type XlsxColumnType = (typeof XLSX_COLUMN_TYPES)[number];

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const STYLE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
// Control characters (C0, DEL, C1) are refused like the upload route's file names: none belongs in a
// download's name.
const FILENAME = /^[^/\\:*?"<>|\p{Cc}]{1,200}\.xlsx$/u;
const SHEET_NAME_FORBIDDEN = /[[\]:*?/\\]/;
// exceljs drops C0 controls and DEL from the XML it writes; XML readers turn a raw tab or line break
// in an attribute into a space, and cannot hold a lone surrogate or U+FFFE/U+FFFF at all. Any of
// them would change the name (two names could become one), so they are refused, not rewritten.
const SHEET_NAME_ALTERED = /(?=\p{ASCII})\p{Cc}|[\ufffe\uffff]|\p{Cs}/u;

// ---------------------------------------------------------------------------------------
// Schema

function isIanaTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const hexColor = z.string().regex(HEX_COLOR, "Expected a #RRGGBB color.").openapi({ example: "#F2F2F2" });
const styleName = z.string().regex(STYLE_NAME, "Style names are 1-64 letters, digits, `_`, `.` or `-`.").openapi({ example: "hdr" });
const a1Cell = z.string().regex(A1_CELL, "Expected an A1 cell reference such as `B10`.");
const a1Range = z.string().regex(A1_RANGE, "Expected an A1 range such as `A1:B2`.").openapi({ example: "A1:B1" });

const borderSchema = z
  .object({
    style: z.enum(["thin", "medium", "thick", "dashed", "dotted", "double", "hair"]),
    color: hexColor.optional(),
    sides: z.array(z.enum(["top", "right", "bottom", "left"])).min(1).default(["top", "right", "bottom", "left"]),
  })
  .strict();

const alignmentSchema = z
  .object({
    horizontal: z.enum(["left", "center", "right", "fill", "justify"]).optional(),
    vertical: z.enum(["top", "middle", "bottom"]).optional(),
    wrap: z.boolean().optional(),
    indent: z.number().int().min(0).max(250).optional(),
    rotation: z.number().int().min(-90).max(90).optional(),
  })
  .strict();

export const xlsxStyleSchema = z
  .object({
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    underline: z.boolean().optional(),
    strike: z.boolean().optional(),
    color: hexColor.optional().openapi({ description: "Font color." }),
    size: z.number().min(1).max(409).optional().openapi({ description: "Font size in points." }),
    font: z.string().min(1).max(31).optional().openapi({ description: "Font name.", example: "Calibri" }),
    fill: hexColor.optional().openapi({ description: "Solid background color." }),
    border: borderSchema.optional(),
    alignment: alignmentSchema.optional(),
    num_format: z.string().min(1).max(255).optional().openapi({ example: "#,##0.00 [$€-x-euro2]" }),
    locked: z.boolean().optional().openapi({ description: "`false` leaves the cell editable when its sheet is protected (cells are locked by default)." }),
    hide_formula: z.boolean().optional().openapi({ description: "Hides the cell's formula from the formula bar when its sheet is protected." }),
  })
  .strict()
  .openapi({ description: "A named style: font, fill, border, alignment and number format." });

const cellValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const columnSchema = z
  .object({
    key: z.string().min(1).max(255).openapi({ description: "Names the column for object rows.", example: "total" }),
    header: z.string().optional().openapi({ description: "Header text; a header row is written when any column has one.", example: "Total" }),
    type: z.enum(XLSX_COLUMN_TYPES).default("string").openapi({
      description:
        "`string` values stay text even when they start with `=`; `date` takes `YYYY-MM-DD`; `datetime` takes ISO 8601, a value with `Z` or an offset is shown in the workbook `timezone`, one without is taken as wall time there; `url` becomes a hyperlink for http, https and mailto, plain text otherwise; `percent` takes fractions (0.125 shows as 12.50%).",
    }),
    width: z.number().min(0).max(255).optional().openapi({ description: "Width in characters; estimated from the header and the first 1,000 rows when absent." }),
    style: styleName.optional(),
    format: z.string().min(1).max(255).optional().openapi({ description: "Number format; overrides the style's `num_format` and the type's default.", example: "yyyy-mm-dd" }),
  })
  .strict();

const formulaCellSchema = z
  .object({
    formula: z.string().min(1).openapi({ description: "An Excel formula, with or without the leading `=`.", example: "SUM(B2:B9)" }),
    style: styleName.optional(),
  })
  .strict();

const valueCellSchema = z
  .object({
    value: cellValueSchema,
    type: z.enum(XLSX_COLUMN_TYPES).optional().openapi({ description: "Defaults to the JSON type of `value`." }),
    style: styleName.optional(),
  })
  .strict();

const richCellSchema = z
  .object({
    rich: z
      .array(
        z
          .object({
            text: z.string().min(1),
            style: styleName.optional().openapi({ description: "A named style; only its font (bold, italic, underline, strike, color, size, font) applies to the run." }),
          })
          .strict(),
      )
      .min(1)
      .openapi({ description: "Runs of text, each in its own font.", example: [{ text: "Total ", style: "hdr" }, { text: "(net)" }] }),
    style: styleName.optional().openapi({ description: "The cell's style: fill, border, alignment, and the font of runs without a style." }),
  })
  .strict();

export const xlsxCellSchema = z.union([formulaCellSchema, valueCellSchema, richCellSchema]);

const listValidationSchema = z
  .object({
    range: a1Range,
    type: z.literal("list"),
    values: z.array(z.string().min(1)).min(1).openapi({ example: ["open", "paid", "void"] }),
    allow_blank: z.boolean().default(true),
    prompt: z.string().max(255).optional(),
    error_message: z.string().max(225).optional(),
  })
  .strict();

const CELL_VALUE_OPERATORS = [
  "greater_than",
  "greater_than_or_equal",
  "less_than",
  "less_than_or_equal",
  "equal",
  "not_equal",
  "between",
  "not_between",
] as const;
export type XlsxCellValueOperator = (typeof CELL_VALUE_OPERATORS)[number];

const cellValueRuleSchema = z
  .object({
    type: z.literal("cell_value"),
    range: a1Range,
    operator: z.enum(CELL_VALUE_OPERATORS),
    values: z.array(z.union([z.number(), z.string()])).min(1).max(2).openapi({ description: "Two for `between`/`not_between`, one otherwise; strings compare as text." }),
    style: styleName,
  })
  .strict();

const colorScaleRuleSchema = z
  .object({
    type: z.literal("color_scale"),
    range: a1Range,
    colors: z.array(hexColor).min(2).max(3).openapi({ description: "Colors for the minimum, (midpoint,) maximum." }),
  })
  .strict();

const validationCommon = {
  range: a1Range,
  allow_blank: z.boolean().default(true),
  prompt: z.string().max(255).optional(),
  error_message: z.string().max(225).optional(),
};

const comparedValues = <T extends z.ZodType>(value: T) =>
  z.array(value).min(1).max(2).openapi({ description: "Two for `between`/`not_between`, one otherwise." });

const numberValidationSchema = z
  .object({ ...validationCommon, type: z.enum(["whole", "decimal", "text_length"]).openapi({ description: "`text_length` compares the number of characters." }), operator: z.enum(CELL_VALUE_OPERATORS), values: comparedValues(z.number()) })
  .strict();

const dateValidationSchema = z
  .object({ ...validationCommon, type: z.literal("date"), operator: z.enum(CELL_VALUE_OPERATORS), values: comparedValues(z.string().openapi({ example: "2026-01-31" })) })
  .strict();

const timeValidationSchema = z
  .object({ ...validationCommon, type: z.literal("time"), operator: z.enum(CELL_VALUE_OPERATORS), values: comparedValues(z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$/, "Expected `HH:MM` or `HH:MM:SS`.")) })
  .strict();

const customValidationSchema = z
  .object({ ...validationCommon, type: z.literal("custom"), formula: z.string().min(1).openapi({ description: "True for valid input, relative to the range's top-left cell.", example: "ISNUMBER(B2)" }) })
  .strict();

const styledRange = { range: a1Range, style: styleName };

export const XLSX_ICON_SETS = {
  "3_arrows": "3Arrows",
  "3_arrows_gray": "3ArrowsGray",
  "3_flags": "3Flags",
  "3_traffic_lights": "3TrafficLights1",
  "3_signs": "3Signs",
  "3_symbols": "3Symbols",
  "4_arrows": "4Arrows",
  "4_ratings": "4Rating",
  "4_traffic_lights": "4TrafficLights",
  "5_arrows": "5Arrows",
  "5_ratings": "5Rating",
  "5_quarters": "5Quarters",
} as const;

const dataBarRuleSchema = z.object({ type: z.literal("data_bar"), range: a1Range, color: hexColor.default("#638EC6") }).strict();
const iconSetRuleSchema = z
  .object({ type: z.literal("icon_set"), range: a1Range, icons: z.enum(Object.keys(XLSX_ICON_SETS) as [keyof typeof XLSX_ICON_SETS]).default("3_arrows"), reverse: z.boolean().default(false) })
  .strict();
const formulaRuleSchema = z
  .object({ type: z.literal("formula"), ...styledRange, formula: z.string().min(1).openapi({ description: "True where the style applies, relative to the range's top-left cell.", example: "$C2>100" }) })
  .strict();
const rankRuleSchema = z
  .object({ type: z.enum(["top", "bottom"]), ...styledRange, rank: z.number().int().min(1).max(1000).default(10), percent: z.boolean().default(false) })
  .strict();
const duplicateRuleSchema = z.object({ type: z.enum(["duplicate", "unique"]), ...styledRange }).strict();
const textRuleSchema = z
  .object({ type: z.literal("text"), ...styledRange, operator: z.enum(["contains", "not_contains", "begins_with", "ends_with"]), text: z.string().min(1).max(255) })
  .strict();

const sheetSchema = z
  .object({
    name: z.string().min(1).openapi({ example: "Invoices" }),
    freeze: z
      .object({ rows: z.number().int().min(0).default(0), columns: z.number().int().min(0).default(0) })
      .strict()
      .optional(),
    autofilter: z.union([z.boolean(), a1Range]).default(false).openapi({ description: "`true` filters the header row over all columns and rows." }),
    header_style: styleName.optional(),
    columns: z.array(columnSchema).min(1),
    rows: z
      .array(z.union([z.array(cellValueSchema), z.record(z.string(), cellValueSchema)]))
      .default([])
      .openapi({ description: "Arrays (positional) or objects keyed by column `key`; null is an empty cell." }),
    merges: z.array(a1Range).max(5_000).default([]),
    cells: z.record(a1Cell, xlsxCellSchema).default({}).openapi({ description: "Cells by A1 reference; they override row values. Formulas come only from here." }),
    data_validations: z
      .array(z.union([listValidationSchema, numberValidationSchema, dateValidationSchema, timeValidationSchema, customValidationSchema]))
      .max(1_000)
      .default([]),
    conditional_formats: z
      .array(z.union([cellValueRuleSchema, colorScaleRuleSchema, dataBarRuleSchema, iconSetRuleSchema, formulaRuleSchema, rankRuleSchema, duplicateRuleSchema, textRuleSchema]))
      .max(1_000)
      .default([]),
    tables: z.array(xlsxTableSchema).default([]),
    charts: z.array(xlsxChartSchema).default([]),
    images: z.array(xlsxImageSchema).default([]),
    comments: z.array(xlsxCommentSchema).default([]),
    outline: xlsxOutlineSchema.default({ rows: [], columns: [] }),
    protection: xlsxSheetProtectionSchema.optional(),
    print: xlsxPrintSchema.optional(),
  })
  .strict();

export const xlsxRequestSchema = z
  .object({
    filename: z.string().regex(FILENAME, "Expected a file name ending in `.xlsx` without path separators.").default("workbook.xlsx"),
    timezone: z.string().refine(isIanaTimeZone, "Expected an IANA time zone such as `Europe/Berlin`.").default("UTC").openapi({ example: "Europe/Berlin" }),
    styles: z.record(z.string().regex(STYLE_NAME), xlsxStyleSchema).default({}),
    sheets: z.array(sheetSchema).min(1).max(255),
    properties: z
      .object({
        title: z.string().max(255).optional(),
        subject: z.string().max(255).optional(),
        creator: z.string().max(255).optional(),
        keywords: z.string().max(255).optional(),
        description: z.string().max(2_000).optional(),
        category: z.string().max(255).optional(),
      })
      .strict()
      .default({})
      .openapi({ description: "Document properties." }),
    defined_names: z.array(xlsxDefinedNameSchema).default([]).openapi({ description: "Workbook-level names for ranges; they share one namespace with table names." }),
    protection: xlsxWorkbookProtectionSchema.optional(),
    output: outputModeSchema,
  })
  .strict()
  .openapi("XlsxRequest", {
    description: `A workbook built from JSON. Excel's limits (sheet names, ${EXCEL_MAX_ROWS} rows, ${EXCEL_MAX_COLUMNS} columns, ${EXCEL_MAX_CELL_CHARS} characters per cell) are checked before any work: 422 \`xlsx_limits\` with a pointer per field, not charged. Workbooks of up to ${XLSX_SYNC_CELL_LIMIT} cells (header and data rows times columns, plus explicit cells) may run synchronously.`,
  });

export type XlsxRequest = z.output<typeof xlsxRequestSchema>;
export type XlsxSheet = XlsxRequest["sheets"][number];
export type XlsxColumn = XlsxSheet["columns"][number];
export type XlsxStyle = z.output<typeof xlsxStyleSchema>;
export type XlsxCell = z.output<typeof xlsxCellSchema>;
export type XlsxValueCell = z.output<typeof valueCellSchema>;
export type XlsxRichCell = z.output<typeof richCellSchema>;
export type XlsxCellValue = z.output<typeof cellValueSchema>;
export type XlsxRow = XlsxSheet["rows"][number];
export type XlsxConditionalFormat = XlsxSheet["conditional_formats"][number];
export type XlsxDataValidation = XlsxSheet["data_validations"][number];

// ---------------------------------------------------------------------------------------
// Values shared by the checks here and the origin's cell conversion

export interface IsoDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC when the text names an instant (`Z` or `+hh:mm`), null for a wall time. */
  offsetMinutes: number | null;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function digitsAt(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    n = n * 10 + d;
  }
  return n;
}

// Runs twice per date cell (check, then conversion): a hand-written scanner is several times
// faster than a regular expression with optional groups.
/** `YYYY-MM-DD` for dates; datetimes add `THH:MM[:SS[.mmm]]` and an optional `Z` or `±hh:mm`. Null when invalid. */
export function parseIsoDateTime(text: string, dateOnly: boolean): IsoDateTime | null {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || text[4] !== "-" || text[7] !== "-" || day > daysInMonth(year, month)) return null;
  const value: IsoDateTime = { year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0, offsetMinutes: null };
  if (text.length === 10) return value;
  if (dateOnly || (text[10] !== "T" && text[10] !== " ") || text[13] !== ":") return null;
  value.hour = digitsAt(text, 11, 2);
  value.minute = digitsAt(text, 14, 2);
  let at = 16;
  if (text[at] === ":") {
    value.second = digitsAt(text, at + 1, 2);
    at += 3;
    if (text[at] === ".") {
      let end = at + 1;
      while (end < text.length && end < at + 4 && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
      if (end === at + 1) return null;
      value.millisecond = Number(text.slice(at + 1, end).padEnd(3, "0"));
      at = end;
    }
  }
  if (value.hour < 0 || value.hour > 23 || value.minute < 0 || value.minute > 59 || value.second < 0 || value.second > 59) return null;
  if (at === text.length) return value;
  if (text[at] === "Z" && at + 1 === text.length) {
    value.offsetMinutes = 0;
    return value;
  }
  const sign = text[at] === "+" ? 1 : text[at] === "-" ? -1 : 0;
  const hours = digitsAt(text, at + 1, 2);
  const minutes = digitsAt(text, at + 4, 2);
  if (sign === 0 || text[at + 3] !== ":" || at + 6 !== text.length || hours < 0 || hours > 18 || minutes < 0 || minutes > 59) return null;
  value.offsetMinutes = sign * (hours * 60 + minutes);
  return value;
}

/** The target a url cell links to, or null when it must stay plain text (other schemes, too long, unparsable). */
export function hyperlinkTarget(text: string): string | null {
  if (text.length > EXCEL_MAX_HYPERLINK_CHARS) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? text : null;
}

/** A cell's type: its column's, or for explicit cells the given type or the JSON type of the value. */
export function explicitCellType(cell: XlsxValueCell): XlsxColumnType {
  if (cell.type) return cell.type;
  if (typeof cell.value === "number") return "number";
  if (typeof cell.value === "boolean") return "boolean";
  return "string";
}

// ---------------------------------------------------------------------------------------
// Counting (billing, sync/async threshold)

export function hasHeaderRow(sheet: XlsxSheet): boolean {
  return sheet.columns.some((column) => column.header !== undefined);
}

/**
 * Header and data rows times columns, plus explicit cells: what is billed, known before any work.
 * `rowCounts` gives each sheet's data rows when they are not in `sheet.rows` (the origin streams them).
 */
export function countCells(request: XlsxRequest, rowCounts?: readonly number[]): number {
  let cells = 0;
  for (const [s, sheet] of request.sheets.entries()) {
    const rows = (rowCounts?.[s] ?? sheet.rows.length) + (hasHeaderRow(sheet) ? 1 : 0);
    cells += rows * sheet.columns.length + Object.keys(sheet.cells).length;
  }
  return cells;
}

// ---------------------------------------------------------------------------------------
// Checks that need the whole request: run before any work and before any charge

function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

class ErrorList {
  readonly invalid: FieldError[] = [];
  readonly limits: FieldError[] = [];
  invalidCount = 0;
  limitsCount = 0;

  addInvalid(pointer: string, detail: string): void {
    if (this.invalidCount++ < XLSX_MAX_REPORTED_ERRORS) this.invalid.push({ pointer, detail });
  }

  addLimit(pointer: string, detail: string): void {
    if (this.limitsCount++ < XLSX_MAX_REPORTED_ERRORS) this.limits.push({ pointer, detail });
  }

  /** Another list's errors as if they had been added here at this point (counts past the cap included). */
  addAll(other: ErrorList): void {
    for (const { pointer, detail } of other.invalid) this.addInvalid(pointer, detail);
    for (const { pointer, detail } of other.limits) this.addLimit(pointer, detail);
    this.invalidCount += other.invalidCount - other.invalid.length;
    this.limitsCount += other.limitsCount - other.limits.length;
  }
}

// The value's pointer is `${at}/${token}`, joined only when there is something to report: this
// runs once per cell, and joining every cell's pointer made a string per cell for nothing.
function checkValue(errors: ErrorList, at: string, token: string | number, value: XlsxCellValue, type: XlsxColumnType): void {
  if (value === null) return;
  if (typeof value === "string" && value.length > EXCEL_MAX_CELL_CHARS) {
    errors.addLimit(`${at}/${token}`, `A cell holds at most ${EXCEL_MAX_CELL_CHARS} characters; this one has ${value.length}.`);
  }
  switch (type) {
    case "string":
    case "url":
      if (typeof value !== "string") errors.addInvalid(`${at}/${token}`, `A ${type} cell takes a string.`);
      return;
    case "boolean":
      if (typeof value !== "boolean") errors.addInvalid(`${at}/${token}`, "A boolean cell takes true or false.");
      return;
    case "integer":
      if (!Number.isSafeInteger(value)) errors.addInvalid(`${at}/${token}`, "An integer cell takes a whole number within ±9007199254740991.");
      return;
    case "number":
    case "percent":
    case "currency":
      if (typeof value !== "number") errors.addInvalid(`${at}/${token}`, `A ${type} cell takes a number.`);
      else if (Math.abs(value) > EXCEL_MAX_NUMBER) errors.addLimit(`${at}/${token}`, `Excel numbers stay within ±${EXCEL_MAX_NUMBER}.`);
      return;
    case "date":
    case "datetime": {
      const parsed = typeof value === "string" ? parseIsoDateTime(value, type === "date") : null;
      if (!parsed) {
        errors.addInvalid(`${at}/${token}`, type === "date" ? "A date cell takes `YYYY-MM-DD`." : "A datetime cell takes ISO 8601 such as `2026-11-01T09:30:00Z`.");
      } else if (parsed.year < 1900 || parsed.year > 9999) {
        errors.addLimit(`${at}/${token}`, "Excel dates lie between the years 1900 and 9999.");
      }
      return;
    }
  }
}

function checkSheetName(errors: ErrorList, pointer: string, name: string, seen: Set<string>): void {
  if (name.length > EXCEL_MAX_SHEET_NAME_CHARS) errors.addLimit(pointer, `Sheet names have at most ${EXCEL_MAX_SHEET_NAME_CHARS} characters.`);
  if (SHEET_NAME_FORBIDDEN.test(name)) errors.addLimit(pointer, "Sheet names cannot contain any of [ ] : * ? / \\.");
  const altered = SHEET_NAME_ALTERED.exec(name)?.[0];
  if (altered !== undefined) {
    const code = `U+${altered.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    errors.addLimit(pointer, `Sheet names cannot contain the character ${code}: the workbook would not keep it as written.`);
  }
  if (name.startsWith("'") || name.endsWith("'")) errors.addLimit(pointer, "Sheet names cannot start or end with an apostrophe.");
  if (name.toLowerCase() === "history") errors.addLimit(pointer, "`History` is reserved by Excel.");
  const folded = name.toLowerCase();
  if (seen.has(folded)) errors.addLimit(pointer, "Sheet names must be unique, ignoring case.");
  seen.add(folded);
}

function checkRange(errors: ErrorList, pointer: string, ref: string): CellRange {
  const range = parseA1Range(ref);
  if (!rangeWithinGrid(range)) errors.addLimit(pointer, `\`${ref}\` lies outside Excel's grid (XFD${EXCEL_MAX_ROWS}).`);
  return range;
}

function checkStyleRef(errors: ErrorList, pointer: string, name: string | undefined, styles: XlsxRequest["styles"]): void {
  if (name !== undefined && !(name in styles)) errors.addInvalid(pointer, `No style named \`${name}\` in \`styles\`.`);
}

function checkMerges(errors: ErrorList, base: string, merges: readonly string[]): void {
  const ranges = merges.map((ref, i) => ({ i, range: checkRange(errors, `${base}/${i}`, ref) }));
  for (const { i, range } of ranges) {
    if (range.top === range.bottom && range.left === range.right) errors.addInvalid(`${base}/${i}`, "A merge needs at least two cells.");
    if (range.bottom - range.top + 1 > XLSX_MAX_MERGE_ROWS) errors.addLimit(`${base}/${i}`, `A merge may span at most ${XLSX_MAX_MERGE_ROWS} rows.`);
  }
  ranges.sort((a, b) => a.range.top - b.range.top);
  for (let a = 0; a < ranges.length; a++) {
    const first = ranges[a]!;
    for (let b = a + 1; b < ranges.length && ranges[b]!.range.top <= first.range.bottom; b++) {
      const second = ranges[b]!;
      if (second.range.left <= first.range.right && first.range.left <= second.range.right) {
        errors.addInvalid(`${base}/${Math.max(first.i, second.i)}`, `Overlaps the merge \`${merges[Math.min(first.i, second.i)]}\`.`);
      }
    }
  }
}

/**
 * One sheet's row values, checked one row at a time as they come: in memory at the edge, as the
 * origin reads them off its request stream. Its errors join the request's where the sheet's rows
 * are checked (findXlsxRequestErrors), so either way the problem lists the same fields.
 */
export class XlsxRowCheck {
  readonly errors = new ErrorList();
  private readonly base: string;
  private readonly columns: readonly XlsxColumn[];
  private readonly indexByKey: Map<string, number>;
  private readonly types: XlsxColumnType[];
  private readonly urlColumns: number[];
  private hyperlinks = 0;
  /** The sheet's data rows, counted before they are checked (the origin reads them later). */
  readonly count: number;

  constructor(sheetIndex: number, columns: readonly XlsxColumn[], count: number) {
    this.count = count;
    this.base = `/sheets/${sheetIndex}`;
    this.columns = columns;
    this.indexByKey = new Map(columns.map((column, i) => [column.key, i]));
    this.types = columns.map((column) => column.type);
    this.urlColumns = columns.flatMap((column, i) => (column.type === "url" ? [i] : []));
  }

  /** Checks row `r`; false when it holds an error, so a writer skips it. */
  check(row: XlsxRow, r: number): boolean {
    const before = this.errors.invalidCount + this.errors.limitsCount;
    const rowPointer = `${this.base}/rows/${r}`;
    const { columns, errors, types } = this;
    // The schema sees to this at the edge; the origin takes rows it has not parsed with it.
    if (row === null || typeof row !== "object") {
      errors.addInvalid(rowPointer, "A row is an array of values or an object keyed by column.");
      return false;
    }
    if (Array.isArray(row)) {
      if (row.length > columns.length) errors.addInvalid(rowPointer, `The row has ${row.length} values but the sheet has ${columns.length} columns.`);
      const n = Math.min(row.length, columns.length);
      for (let c = 0; c < n; c++) checkValue(errors, rowPointer, c, row[c]!, types[c]!);
      for (const c of this.urlColumns) if (typeof row[c] === "string" && hyperlinkTarget(row[c]) !== null) this.hyperlinks++;
    } else {
      for (const key in row) {
        const c = this.indexByKey.get(key);
        if (c === undefined) errors.addInvalid(`${rowPointer}/${pointerToken(key)}`, `No column has the key \`${key}\`.`);
        else checkValue(errors, rowPointer, pointerToken(key), row[key]!, types[c]!);
      }
      for (const c of this.urlColumns) {
        const value = row[columns[c]!.key];
        if (typeof value === "string" && hyperlinkTarget(value) !== null) this.hyperlinks++;
      }
    }
    return this.errors.invalidCount + this.errors.limitsCount === before;
  }

  /** What holds only over all the rows: call once the last has been checked. */
  finish(): void {
    if (this.hyperlinks > EXCEL_MAX_HYPERLINKS_PER_SHEET) {
      this.errors.addLimit(`${this.base}/rows`, `A sheet holds at most ${EXCEL_MAX_HYPERLINKS_PER_SHEET} hyperlinks; url cells here make ${this.hyperlinks}.`);
    }
  }
}

function checkedRows(sheet: XlsxSheet, s: number): XlsxRowCheck {
  const check = new XlsxRowCheck(s, sheet.columns, sheet.rows.length);
  sheet.rows.forEach((row, r) => check.check(row, r));
  check.finish();
  return check;
}

function checkSheet(errors: ErrorList, request: XlsxRequest, s: number, seenNames: Set<string>, rows: XlsxRowCheck): void {
  const sheet = request.sheets[s]!;
  const base = `/sheets/${s}`;
  checkSheetName(errors, `${base}/name`, sheet.name, seenNames);
  checkStyleRef(errors, `${base}/header_style`, sheet.header_style, request.styles);

  if (sheet.columns.length > EXCEL_MAX_COLUMNS) errors.addLimit(`${base}/columns`, `A sheet has at most ${EXCEL_MAX_COLUMNS} columns.`);
  const keys = new Set<string>();
  sheet.columns.forEach((column, c) => {
    if (keys.has(column.key)) errors.addInvalid(`${base}/columns/${c}/key`, `The key \`${column.key}\` is used by an earlier column.`);
    keys.add(column.key);
    checkStyleRef(errors, `${base}/columns/${c}/style`, column.style, request.styles);
    if (column.header !== undefined && column.header.length > EXCEL_MAX_CELL_CHARS) {
      errors.addLimit(`${base}/columns/${c}/header`, `A cell holds at most ${EXCEL_MAX_CELL_CHARS} characters.`);
    }
  });

  const rowCount = rows.count + (hasHeaderRow(sheet) ? 1 : 0);
  if (rowCount > EXCEL_MAX_ROWS) errors.addLimit(`${base}/rows`, `A sheet has at most ${EXCEL_MAX_ROWS} rows, header included; this one needs ${rowCount}.`);
  errors.addAll(rows.errors);

  if (sheet.freeze) {
    if (sheet.freeze.rows >= EXCEL_MAX_ROWS) errors.addLimit(`${base}/freeze/rows`, "Frozen rows must leave part of the grid.");
    if (sheet.freeze.columns >= EXCEL_MAX_COLUMNS) errors.addLimit(`${base}/freeze/columns`, "Frozen columns must leave part of the grid.");
  }
  if (typeof sheet.autofilter === "string") checkRange(errors, `${base}/autofilter`, sheet.autofilter);
  checkMerges(errors, `${base}/merges`, sheet.merges);

  for (const [ref, cell] of Object.entries(sheet.cells)) {
    const pointer = `${base}/cells/${pointerToken(ref)}`;
    const { row, col } = parseA1Cell(ref);
    if (row > EXCEL_MAX_ROWS || col > EXCEL_MAX_COLUMNS) errors.addLimit(pointer, `\`${ref}\` lies outside Excel's grid (XFD${EXCEL_MAX_ROWS}).`);
    checkStyleRef(errors, `${pointer}/style`, cell.style, request.styles);
    if ("formula" in cell) {
      if (cell.formula.length > EXCEL_MAX_FORMULA_CHARS) errors.addLimit(`${pointer}/formula`, `A formula has at most ${EXCEL_MAX_FORMULA_CHARS} characters.`);
    } else if ("rich" in cell) {
      cell.rich.forEach((run, i) => checkStyleRef(errors, `${pointer}/rich/${i}/style`, run.style, request.styles));
      const chars = cell.rich.reduce((sum, run) => sum + run.text.length, 0);
      if (chars > EXCEL_MAX_CELL_CHARS) errors.addLimit(`${pointer}/rich`, `A cell holds at most ${EXCEL_MAX_CELL_CHARS} characters; these runs have ${chars}.`);
    } else {
      checkValue(errors, pointer, "value", cell.value, explicitCellType(cell));
    }
  }

  sheet.data_validations.forEach((validation, v) => {
    const pointer = `${base}/data_validations/${v}`;
    checkRange(errors, `${pointer}/range`, validation.range);
    if (validation.type === "custom") {
      if (validation.formula.length > EXCEL_MAX_FORMULA_CHARS) errors.addLimit(`${pointer}/formula`, `A formula has at most ${EXCEL_MAX_FORMULA_CHARS} characters.`);
      return;
    }
    if (validation.type !== "list") {
      const needed = validation.operator === "between" || validation.operator === "not_between" ? 2 : 1;
      if (validation.values.length !== needed) errors.addInvalid(`${pointer}/values`, `\`${validation.operator}\` takes ${needed} value${needed === 1 ? "" : "s"}.`);
      if (validation.type === "date") {
        validation.values.forEach((value, i) => {
          if (!parseIsoDateTime(value, false)) errors.addInvalid(`${pointer}/values/${i}`, "A date validation takes ISO 8601 dates such as `2026-01-31`.");
        });
      }
      return;
    }
    validation.values.forEach((value, i) => {
      if (/[,"]/.test(value)) errors.addLimit(`${pointer}/values/${i}`, "Excel list entries cannot contain commas or double quotes.");
    });
    const listLength = validation.values.join(",").length;
    if (listLength > EXCEL_MAX_LIST_CHARS) errors.addLimit(`${pointer}/values`, `Excel lists have at most ${EXCEL_MAX_LIST_CHARS} characters joined by commas; this one has ${listLength}.`);
  });

  sheet.conditional_formats.forEach((rule, i) => {
    const pointer = `${base}/conditional_formats/${i}`;
    checkRange(errors, `${pointer}/range`, rule.range);
    if (rule.type === "cell_value") {
      checkStyleRef(errors, `${pointer}/style`, rule.style, request.styles);
      const needed = rule.operator === "between" || rule.operator === "not_between" ? 2 : 1;
      if (rule.values.length !== needed) errors.addInvalid(`${pointer}/values`, `\`${rule.operator}\` takes ${needed} value${needed === 1 ? "" : "s"}.`);
      rule.values.forEach((value, j) => {
        if (typeof value === "string" && value.length > 255) errors.addLimit(`${pointer}/values/${j}`, "Text compared by a rule has at most 255 characters.");
      });
    } else if ("style" in rule) {
      checkStyleRef(errors, `${pointer}/style`, rule.style, request.styles);
      if (rule.type === "formula" && rule.formula.length > EXCEL_MAX_FORMULA_CHARS) errors.addLimit(`${pointer}/formula`, `A formula has at most ${EXCEL_MAX_FORMULA_CHARS} characters.`);
    }
  });
}

export interface XlsxRequestErrors {
  /** Values that do not fit their column or refer to things that do not exist: 400 validation_failed. */
  invalid: FieldError[];
  invalidCount: number;
  /** What Excel cannot hold: 422 xlsx_limits. */
  limits: FieldError[];
  limitsCount: number;
}

/**
 * Every check that needs the whole request, each error with a JSON pointer into it; `sources` says
 * which picture sources are taken. `rows` are the sheets' row checks when the rows are not in
 * `sheet.rows` but were checked as they streamed (the origin); by default each sheet's rows are
 * checked here.
 */
export function findXlsxRequestErrors(request: XlsxRequest, sources: XlsxImageSources = "any", rows?: readonly XlsxRowCheck[]): XlsxRequestErrors {
  const errors = new ErrorList();
  const seenNames = new Set<string>();
  request.sheets.forEach((sheet, s) => checkSheet(errors, request, s, seenNames, rows?.[s] ?? checkedRows(sheet, s)));
  checkFeatures(errors, request);
  checkSheetOptions(errors, request, sources);
  return { invalid: errors.invalid, invalidCount: errors.invalidCount, limits: errors.limits, limitsCount: errors.limitsCount };
}

/** Throws 400 validation_failed for inconsistent values, else 422 xlsx_limits for what Excel cannot hold. */
export function assertXlsxWritable(request: XlsxRequest, sources: XlsxImageSources = "any", rows?: readonly XlsxRowCheck[]): void {
  const { invalid, invalidCount, limits, limitsCount } = findXlsxRequestErrors(request, sources, rows);
  if (invalidCount > 0) {
    throw new ProblemError("validation_failed", `${invalidCount} field${invalidCount === 1 ? " is" : "s are"} invalid.`, { errors: invalid });
  }
  if (limitsCount > 0) {
    throw new ProblemError("xlsx_limits", `${limitsCount} field${limitsCount === 1 ? " exceeds" : "s exceed"} Excel's limits.`, { errors: limits });
  }
}
