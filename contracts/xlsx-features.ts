// Workbook features beyond the cell grid: Excel tables, charts and defined names. Their
// schemas join the request schema in xlsx-request.ts; `checkFeatures` runs with the other
// whole-request checks, before any work, so a chart over a missing range or two clashing
// tables is a 400 with a pointer, never a file Excel has to repair.
import { z } from "@hono/zod-openapi";
import {
  A1_CELL,
  A1_RANGE,
  parseA1Cell,
  parseA1Range,
  parseSheetRange,
  rangesOverlap,
  rangeWithinGrid,
  SHEET_RANGE,
  EXCEL_MAX_ROWS,
  type CellRange,
} from "./xlsx-a1.ts";

export const XLSX_MAX_CHARTS_PER_SHEET = 100;
export const XLSX_MAX_SERIES_PER_CHART = 255;
export const XLSX_MAX_TABLES_PER_SHEET = 100;
export const XLSX_MAX_DEFINED_NAMES = 1_000;
/** Chart size bounds in pixels (Excel's drawing canvas allows more; these keep anchors sane). */
export const XLSX_MAX_CHART_PIXELS = 4_000;

// Excel's rule for table and defined names: a letter, `_` or `\` first, then letters, digits, `_`, `.`.
const NAME = /^[A-Za-z_\\][A-Za-z0-9_.\\]{0,254}$/;
// A name that reads as a cell (`A1`, `XFD1048576`) or R1C1 (`R`, `C`, `R1C1`) is refused by Excel.
const CELL_LIKE = /^(?:[A-Za-z]{1,3}[0-9]+|[RrCc]|[Rr][0-9]*[Cc][0-9]*)$/;

const a1Cell = z.string().regex(A1_CELL, "Expected an A1 cell reference such as `B10`.");
const a1Range = z.string().regex(A1_RANGE, "Expected an A1 range such as `A1:B2`.");
const sheetRange = z
  .string()
  .regex(SHEET_RANGE, "Expected an A1 range, optionally on another sheet in Excel's spelling: `B2:B9` or `'Sales 2025'!B2:B9`.")
  .openapi({ example: "'Sales 2025'!B2:B5" });
const excelName = z.string().regex(NAME, "Names start with a letter, `_` or `\\` and continue with letters, digits, `_` or `.` (at most 255).");

export const TABLE_TOTAL_FUNCTIONS = ["sum", "average", "count", "count_nums", "max", "min", "std_dev", "var"] as const;
export type XlsxTableTotal = (typeof TABLE_TOTAL_FUNCTIONS)[number];

const TABLE_STYLE = /^TableStyle(?:Light(?:[1-9]|1[0-9]|2[01])|Medium(?:[1-9]|1[0-9]|2[0-8])|Dark(?:[1-9]|1[01]))$/;

export const xlsxTableSchema = z
  .object({
    name: excelName.openapi({ example: "Sales" }),
    range: a1Range.openapi({ description: "Header row first, then the data rows, then the totals row when `totals_row` is set.", example: "A1:C5" }),
    style: z.string().regex(TABLE_STYLE, "Expected one of Excel's table styles, `TableStyleLight1`..`21`, `TableStyleMedium1`..`28`, `TableStyleDark1`..`11`.").default("TableStyleMedium9"),
    banded_rows: z.boolean().default(true),
    banded_columns: z.boolean().default(false),
    totals_row: z.boolean().default(false),
    columns: z
      .array(
        z
          .object({
            header: z.string().min(1).max(255).optional().openapi({ description: "Written into the header row; defaults to the sheet column's header, else `ColumnN`." }),
            total: z.enum(TABLE_TOTAL_FUNCTIONS).optional().openapi({ description: "The totals row's function for this column." }),
            total_label: z.string().max(255).optional().openapi({ description: "Text in the totals row instead of a function." }),
          })
          .strict(),
      )
      .optional()
      .openapi({ description: "Per column of the range, left to right." }),
  })
  .strict()
  .openapi({ description: "An Excel table (header buttons, banding, structured references) over cells the sheet writes." });

export const CHART_TYPES = ["column", "bar", "line", "pie", "doughnut", "scatter", "area"] as const;
export type XlsxChartType = (typeof CHART_TYPES)[number];
/** The types Excel offers stacked and 100% stacked forms of. */
export const STACKABLE_CHART_TYPES: readonly XlsxChartType[] = ["column", "bar", "line", "area"];

const axisSchema = z.object({ title: z.string().min(1).max(255).optional() }).strict();

export const xlsxChartSchema = z
  .object({
    type: z.enum(CHART_TYPES),
    subtype: z.enum(["stacked", "percent_stacked"]).optional().openapi({ description: "For column, bar, line and area charts." }),
    title: z.string().min(1).max(255).optional(),
    anchor: a1Cell.openapi({ description: "The cell the chart's top-left corner sits on.", example: "E2" }),
    size: z
      .object({ width: z.number().int().min(50).max(XLSX_MAX_CHART_PIXELS), height: z.number().int().min(50).max(XLSX_MAX_CHART_PIXELS) })
      .strict()
      .default({ width: 480, height: 288 })
      .openapi({ description: "In pixels." }),
    series: z
      .array(
        z
          .object({
            name: z.string().min(1).max(255).optional(),
            categories: sheetRange.optional().openapi({ description: "Category labels (x values for scatter): one row or column." }),
            values: sheetRange.openapi({ description: "The values: one row or column, as long as `categories`." }),
          })
          .strict(),
      )
      .min(1)
      .max(XLSX_MAX_SERIES_PER_CHART),
    x_axis: axisSchema.optional(),
    y_axis: axisSchema.optional(),
    legend: z
      .object({ position: z.enum(["right", "left", "top", "bottom", "none"]).default("right") })
      .strict()
      .default({ position: "right" }),
  })
  .strict()
  .openapi({ description: "A native Excel chart over ranges of this or another sheet." });

export const xlsxDefinedNameSchema = z
  .object({
    name: excelName.openapi({ example: "TaxRate" }),
    range: sheetRange.openapi({ description: "A range on a sheet, in Excel's spelling; without a sheet, the first sheet.", example: "'Settings'!B2" }),
  })
  .strict();

export type XlsxTable = z.output<typeof xlsxTableSchema>;
export type XlsxChart = z.output<typeof xlsxChartSchema>;
export type XlsxDefinedName = z.output<typeof xlsxDefinedNameSchema>;

/** What the feature checks read of the request (structural, so this module needs nothing of xlsx-request.ts). */
export interface FeatureRequest {
  sheets: readonly {
    name: string;
    columns: readonly { header?: string | undefined }[];
    merges: readonly string[];
    autofilter: boolean | string;
    tables: readonly XlsxTable[];
    charts: readonly XlsxChart[];
  }[];
  defined_names: readonly XlsxDefinedName[];
}

export interface FeatureErrors {
  addInvalid(pointer: string, detail: string): void;
  addLimit(pointer: string, detail: string): void;
}

/** The header text each column of a table shows: given, else the sheet column's header on row 1, else `ColumnN`. */
export function tableHeaders(table: XlsxTable, sheetColumns: FeatureRequest["sheets"][number]["columns"]): string[] {
  const range = parseA1Range(table.range);
  const headers: string[] = [];
  for (let col = range.left; col <= range.right; col++) {
    const i = col - range.left;
    const sheetHeader = range.top === 1 ? sheetColumns[col - 1]?.header : undefined;
    headers.push(table.columns?.[i]?.header ?? (sheetHeader !== undefined && sheetHeader !== "" ? sheetHeader : `Column${i + 1}`));
  }
  return headers;
}

function isOneDimensional(range: CellRange): boolean {
  return range.top === range.bottom || range.left === range.right;
}

function length(range: CellRange): number {
  return Math.max(range.bottom - range.top, range.right - range.left) + 1;
}

function checkTables(errors: FeatureErrors, request: FeatureRequest, s: number, workbookNames: Map<string, string>): void {
  const sheet = request.sheets[s]!;
  const base = `/sheets/${s}/tables`;
  if (sheet.tables.length > XLSX_MAX_TABLES_PER_SHEET) errors.addLimit(base, `A sheet holds at most ${XLSX_MAX_TABLES_PER_SHEET} tables here.`);
  const placed: { i: number; range: CellRange }[] = [];
  const merges = sheet.merges.map((ref) => ({ ref, range: parseA1Range(ref) }));
  const filter = typeof sheet.autofilter === "string" ? parseA1Range(sheet.autofilter) : sheet.autofilter ? { top: 1, left: 1, bottom: 1, right: sheet.columns.length } : undefined;
  sheet.tables.forEach((table, t) => {
    const pointer = `${base}/${t}`;
    const range = parseA1Range(table.range);
    if (!rangeWithinGrid(range)) errors.addLimit(`${pointer}/range`, `\`${table.range}\` lies outside Excel's grid.`);
    const minRows = table.totals_row ? 3 : 2;
    if (range.bottom - range.top + 1 < minRows) errors.addInvalid(`${pointer}/range`, `A table needs a header row and a data row${table.totals_row ? " and its totals row" : ""}: at least ${minRows} rows.`);
    const width = range.right - range.left + 1;
    if (table.columns && table.columns.length > width) errors.addInvalid(`${pointer}/columns`, `The range has ${width} columns; \`columns\` describes ${table.columns.length}.`);
    table.columns?.forEach((column, c) => {
      if ((column.total !== undefined || column.total_label !== undefined) && !table.totals_row) errors.addInvalid(`${pointer}/columns/${c}`, "`total` and `total_label` need `totals_row: true`.");
      if (column.total !== undefined && column.total_label !== undefined) errors.addInvalid(`${pointer}/columns/${c}`, "A column has either `total` or `total_label`.");
    });
    const seen = new Set<string>();
    tableHeaders(table, sheet.columns).forEach((header, c) => {
      const folded = header.toLowerCase();
      if (seen.has(folded)) errors.addInvalid(`${pointer}/columns/${c}/header`, `Table headers are unique ignoring case; \`${header}\` repeats.`);
      seen.add(folded);
    });
    if (CELL_LIKE.test(table.name)) errors.addInvalid(`${pointer}/name`, `\`${table.name}\` reads as a cell reference.`);
    const folded = table.name.toLowerCase();
    const clash = workbookNames.get(folded);
    if (clash) errors.addInvalid(`${pointer}/name`, `\`${table.name}\` is already used by ${clash}.`);
    else workbookNames.set(folded, `the table at ${pointer}`);
    for (const other of placed) {
      if (rangesOverlap(other.range, range)) errors.addInvalid(`${pointer}/range`, `Overlaps the table \`${sheet.tables[other.i]!.name}\`.`);
    }
    placed.push({ i: t, range });
    for (const merge of merges) if (rangesOverlap(merge.range, range)) errors.addInvalid(`${pointer}/range`, `Tables cannot hold merged cells; \`${merge.ref}\` lies inside.`);
    if (filter && rangesOverlap(filter, range)) errors.addInvalid(`${pointer}/range`, "Overlaps the sheet's autofilter; a table brings its own.");
  });
}

function sheetIndex(request: FeatureRequest, name: string): number {
  const folded = name.toLowerCase();
  return request.sheets.findIndex((sheet) => sheet.name.toLowerCase() === folded);
}

/** A sheet-qualified reference: its sheet must exist and its range fit the grid. */
function checkReference(errors: FeatureErrors, request: FeatureRequest, pointer: string, ref: string): CellRange | undefined {
  const { sheet, range } = parseSheetRange(ref);
  if (sheet !== undefined && sheetIndex(request, sheet) < 0) {
    errors.addInvalid(pointer, `No sheet named \`${sheet}\` in this workbook.`);
    return undefined;
  }
  if (!rangeWithinGrid(range)) {
    errors.addLimit(pointer, `\`${ref}\` lies outside Excel's grid.`);
    return undefined;
  }
  return range;
}

function checkCharts(errors: FeatureErrors, request: FeatureRequest, s: number): void {
  const sheet = request.sheets[s]!;
  const base = `/sheets/${s}/charts`;
  if (sheet.charts.length > XLSX_MAX_CHARTS_PER_SHEET) errors.addLimit(base, `A sheet holds at most ${XLSX_MAX_CHARTS_PER_SHEET} charts here.`);
  sheet.charts.forEach((chart, c) => {
    const pointer = `${base}/${c}`;
    if (chart.subtype !== undefined && !STACKABLE_CHART_TYPES.includes(chart.type)) errors.addInvalid(`${pointer}/subtype`, `A ${chart.type} chart has no ${chart.subtype} form; column, bar, line and area have.`);
    const anchor = parseA1Cell(chart.anchor);
    if (anchor.row > EXCEL_MAX_ROWS || !rangeWithinGrid({ top: anchor.row, left: anchor.col, bottom: anchor.row, right: anchor.col })) errors.addLimit(`${pointer}/anchor`, `\`${chart.anchor}\` lies outside Excel's grid.`);
    if ((chart.type === "pie" || chart.type === "doughnut") && chart.type === "pie" && chart.series.length > 1) errors.addInvalid(`${pointer}/series`, "A pie chart shows one series.");
    if ((chart.x_axis || chart.y_axis) && (chart.type === "pie" || chart.type === "doughnut")) errors.addInvalid(pointer, `A ${chart.type} chart has no axes.`);
    chart.series.forEach((series, i) => {
      const at = `${pointer}/series/${i}`;
      const values = checkReference(errors, request, `${at}/values`, series.values);
      if (values && !isOneDimensional(values)) errors.addInvalid(`${at}/values`, "A series' values are one row or one column.");
      if (series.categories === undefined) return;
      const categories = checkReference(errors, request, `${at}/categories`, series.categories);
      if (categories && !isOneDimensional(categories)) errors.addInvalid(`${at}/categories`, "Categories are one row or one column.");
      else if (categories && values && length(categories) !== length(values)) errors.addInvalid(`${at}/categories`, `Categories have ${length(categories)} cells, values ${length(values)}.`);
    });
  });
}

function checkDefinedNames(errors: FeatureErrors, request: FeatureRequest, workbookNames: Map<string, string>): void {
  if (request.defined_names.length > XLSX_MAX_DEFINED_NAMES) errors.addLimit("/defined_names", `At most ${XLSX_MAX_DEFINED_NAMES} defined names here.`);
  request.defined_names.forEach((defined, d) => {
    const pointer = `/defined_names/${d}`;
    if (CELL_LIKE.test(defined.name)) errors.addInvalid(`${pointer}/name`, `\`${defined.name}\` reads as a cell reference.`);
    if (/^_xlnm\./i.test(defined.name)) errors.addInvalid(`${pointer}/name`, "Names starting with `_xlnm.` are Excel's own (print area, print titles, filter); set them through `print` and `autofilter`.");
    const folded = defined.name.toLowerCase();
    const clash = workbookNames.get(folded);
    if (clash) errors.addInvalid(`${pointer}/name`, `\`${defined.name}\` is already used by ${clash}.`);
    else workbookNames.set(folded, `the defined name at ${pointer}`);
    checkReference(errors, request, `${pointer}/range`, defined.range);
  });
}

/** Tables, charts and defined names, each error with its JSON pointer. */
export function checkFeatures(errors: FeatureErrors, request: FeatureRequest): void {
  // Table names and defined names share one namespace, case-insensitively.
  const workbookNames = new Map<string, string>();
  request.sheets.forEach((_, s) => checkTables(errors, request, s, workbookNames));
  request.sheets.forEach((_, s) => checkCharts(errors, request, s));
  checkDefinedNames(errors, request, workbookNames);
}
