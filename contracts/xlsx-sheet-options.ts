// Sheet features around the cell grid: notes (comments), outline levels and hidden rows and
// columns, sheet and workbook protection, print setup and pictures. Their schemas join the
// request schema in xlsx-request.ts; `checkSheetOptions` runs with the other whole-request
// checks, before any work or charge, each refusal with its JSON pointer.
import { z } from "@hono/zod-openapi";
import { sourceSchema } from "./envelope.ts";
import { Base64Error, decodeBase64, measureBase64 } from "./encoding/base64.ts";
import {
  A1_CELL,
  A1_RANGE,
  COLUMN_SPAN,
  EXCEL_MAX_COLUMNS,
  EXCEL_MAX_ROWS,
  parseA1Cell,
  parseA1Range,
  parseColumnSpan,
  parseRowSpan,
  rangeWithinGrid,
  ROW_SPAN,
  type Span,
} from "./xlsx-a1.ts";
import { readImageFacts } from "./xlsx-image.ts";

export const XLSX_MAX_COMMENTS_PER_SHEET = 10_000;
export const XLSX_MAX_COMMENT_CHARS = 32_767;
export const XLSX_MAX_IMAGES_PER_SHEET = 100;
/** Decoded bytes of one picture. */
export const XLSX_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Shown size bounds in pixels, as for charts. */
export const XLSX_MAX_IMAGE_PIXELS = 4_000;
export const EXCEL_MAX_OUTLINE_LEVEL = 7;
export const EXCEL_MAX_PASSWORD_CHARS = 255;
/** Distinct passwords per workbook: each is hashed with 100,000 SHA-512 rounds while the workbook is written. */
export const XLSX_MAX_PASSWORDS = 8;
/** Excel keeps a page header or footer, codes included, to this many characters. */
export const EXCEL_MAX_HEADER_FOOTER_CHARS = 255;

const a1Cell = z.string().regex(A1_CELL, "Expected an A1 cell reference such as `B10`.");
const a1Range = z.string().regex(A1_RANGE, "Expected an A1 range such as `A1:B2`.");
const rowSpan = z.string().regex(ROW_SPAN, "Expected rows such as `2:10` or `5`.");
const columnSpan = z.string().regex(COLUMN_SPAN, "Expected columns such as `B:D` or `C`.");
const password = z
  .string()
  .min(1)
  .max(EXCEL_MAX_PASSWORD_CHARS)
  .openapi({ description: "Plain text in the request; the file stores only Excel's salted SHA-512 hash (100,000 spins), as current Excel writes it." });

export const xlsxCommentSchema = z
  .object({
    cell: a1Cell.openapi({ example: "B2" }),
    text: z.string().min(1).max(XLSX_MAX_COMMENT_CHARS).openapi({ example: "Checked against the ledger" }),
    author: z.string().min(1).max(255).optional().openapi({ example: "Finance" }),
    visible: z.boolean().default(false).openapi({ description: "Shown at all times instead of on hover." }),
  })
  .strict()
  .openapi({ description: "A note on a cell (Excel's hover note with a red corner mark)." });

const outlineEntry = <T extends z.ZodType>(range: T) =>
  z
    .object({
      range,
      level: z.number().int().min(0).max(EXCEL_MAX_OUTLINE_LEVEL).default(1).openapi({ description: "Outline (group) level, 1 to 7; 0 hides without grouping." }),
      hidden: z.boolean().default(false),
    })
    .strict();

export const xlsxOutlineSchema = z
  .object({
    rows: z.array(outlineEntry(rowSpan.openapi({ example: "2:10" }))).max(1_000).default([]),
    columns: z.array(outlineEntry(columnSpan.openapi({ example: "B:D" }))).max(1_000).default([]),
  })
  .strict()
  .openapi({ description: "Outline levels (Excel's row and column groups) and hidden rows and columns. Spans of one kind may not overlap." });

export const SHEET_PROTECTION_ALLOWANCES = {
  format_cells: "formatCells",
  format_columns: "formatColumns",
  format_rows: "formatRows",
  insert_columns: "insertColumns",
  insert_rows: "insertRows",
  insert_hyperlinks: "insertHyperlinks",
  delete_columns: "deleteColumns",
  delete_rows: "deleteRows",
  sort: "sort",
  autofilter: "autoFilter",
  pivot_tables: "pivotTables",
} as const;

export const xlsxSheetProtectionSchema = z
  .object({
    password: password.optional(),
    allow: z
      .array(z.enum(Object.keys(SHEET_PROTECTION_ALLOWANCES) as [keyof typeof SHEET_PROTECTION_ALLOWANCES]))
      .default([])
      .openapi({ description: "What users may still do on the protected sheet; selecting cells is always allowed. Cells whose style sets `locked: false` stay editable." }),
  })
  .strict()
  .openapi({ description: "Protects the sheet's cells, optionally behind a password." });

export const xlsxWorkbookProtectionSchema = z
  .object({ password: password.optional() })
  .strict()
  .openapi({ description: "Locks the workbook's structure: sheets cannot be added, removed, renamed, moved or unhidden." });

/** Paper sizes by name, with Excel's paperSize numbers. */
export const XLSX_PAPER_SIZES = { letter: 1, tabloid: 3, legal: 5, executive: 7, a3: 8, a4: 9, a5: 11, b4: 12, b5: 13 } as const;

const headerFooterSchema = z
  .object({ left: z.string().max(255).optional(), center: z.string().max(255).optional(), right: z.string().max(255).optional() })
  .strict()
  .openapi({
    description: "Text per section; `{page}`, `{pages}`, `{date}`, `{time}`, `{sheet}` and `{file}` are filled in when printing. Excel keeps at most 255 characters over the three sections once coded.",
    example: { left: "{sheet}", right: "Page {page} of {pages}" },
  });

const inches = z.number().min(0).max(49);

export const xlsxPrintSchema = z
  .object({
    orientation: z.enum(["portrait", "landscape"]).default("portrait"),
    paper: z.enum(Object.keys(XLSX_PAPER_SIZES) as [keyof typeof XLSX_PAPER_SIZES]).optional().openapi({ description: "Excel's default (the printer's) when absent." }),
    margins: z
      .object({ left: inches.default(0.7), right: inches.default(0.7), top: inches.default(0.75), bottom: inches.default(0.75), header: inches.default(0.3), footer: inches.default(0.3) })
      .strict()
      .optional()
      .openapi({ description: "In inches." }),
    fit_to: z
      .object({ width: z.number().int().min(0).max(32_767).default(1), height: z.number().int().min(0).max(32_767).default(0) })
      .strict()
      .optional()
      .openapi({ description: "Shrinks the print to this many pages across and down; 0 leaves that direction free." }),
    scale: z.number().int().min(10).max(400).optional().openapi({ description: "Print scale in percent; not with `fit_to`." }),
    print_area: a1Range.optional().openapi({ example: "A1:F40" }),
    repeat_rows: rowSpan.optional().openapi({ description: "Rows printed at the top of every page.", example: "1" }),
    repeat_columns: columnSpan.optional().openapi({ description: "Columns printed at the left of every page.", example: "A" }),
    header: headerFooterSchema.optional(),
    footer: headerFooterSchema.optional(),
    gridlines: z.boolean().default(false),
    center_horizontally: z.boolean().default(false),
    center_vertically: z.boolean().default(false),
  })
  .strict()
  .openapi({ description: "Page setup for printing and PDF export." });

export const xlsxImageSchema = z
  .object({
    source: sourceSchema.openapi({ description: `A PNG or JPEG of up to ${XLSX_MAX_IMAGE_BYTES} bytes: \`{base64}\`, \`{file_id}\` or \`{url}\` as in every envelope.` }),
    anchor: a1Cell.openapi({ description: "The cell the picture's top-left corner sits on.", example: "E2" }),
    offset: z
      .object({ x: z.number().int().min(0).max(XLSX_MAX_IMAGE_PIXELS).default(0), y: z.number().int().min(0).max(XLSX_MAX_IMAGE_PIXELS).default(0) })
      .strict()
      .default({ x: 0, y: 0 })
      .openapi({ description: "From the anchor cell's top-left corner, in pixels." }),
    width: z.number().int().min(1).max(XLSX_MAX_IMAGE_PIXELS).optional().openapi({ description: "Shown width in pixels; the picture's own when absent (height scales with it when only one is given)." }),
    height: z.number().int().min(1).max(XLSX_MAX_IMAGE_PIXELS).optional(),
    alt_text: z.string().max(255).optional(),
  })
  .strict()
  .openapi({ description: "A PNG or JPEG picture over the sheet, its top-left corner in a cell." });

export type XlsxComment = z.output<typeof xlsxCommentSchema>;
export type XlsxOutline = z.output<typeof xlsxOutlineSchema>;
export type XlsxSheetProtection = z.output<typeof xlsxSheetProtectionSchema>;
export type XlsxWorkbookProtection = z.output<typeof xlsxWorkbookProtectionSchema>;
export type XlsxPrint = z.output<typeof xlsxPrintSchema>;
export type XlsxImage = z.output<typeof xlsxImageSchema>;
export type XlsxHeaderFooter = NonNullable<XlsxPrint["header"]>;

const HEADER_FOOTER_FIELDS: Record<string, string> = { page: "&P", pages: "&N", date: "&D", time: "&T", sheet: "&A", file: "&F" };

/** Excel's header/footer code (`&LText&CPage &P`): a literal `&` doubled, the placeholders as codes. */
export function headerFooterCode(sections: XlsxHeaderFooter): string {
  const code = (text: string) => text.replace(/&/g, "&&").replace(/\{(page|pages|date|time|sheet|file)\}/g, (_, field: string) => HEADER_FOOTER_FIELDS[field]!);
  return (
    (sections.left !== undefined ? `&L${code(sections.left)}` : "") +
    (sections.center !== undefined ? `&C${code(sections.center)}` : "") +
    (sections.right !== undefined ? `&R${code(sections.right)}` : "")
  );
}

/** The shown size in pixels: as asked, the picture's own, or one side scaled to keep the aspect. */
export function imageDisplaySize(image: XlsxImage, natural: { width: number; height: number }): { width: number; height: number } {
  if (image.width !== undefined && image.height !== undefined) return { width: image.width, height: image.height };
  if (image.width !== undefined) return { width: image.width, height: Math.max(1, Math.round((natural.height * image.width) / natural.width)) };
  if (image.height !== undefined) return { width: Math.max(1, Math.round((natural.width * image.height) / natural.height)), height: image.height };
  return natural;
}

/** What these checks read of the request (structural, so this module needs nothing of xlsx-request.ts). */
export interface SheetOptionsRequest {
  sheets: readonly {
    comments: readonly XlsxComment[];
    outline: XlsxOutline;
    print?: XlsxPrint | undefined;
    images: readonly XlsxImage[];
    protection?: XlsxSheetProtection | undefined;
  }[];
  protection?: XlsxWorkbookProtection | undefined;
}

/**
 * Where picture sources may point: the public API takes any source, the origin only inline
 * bytes (the edge resolves `file_id` and `url` into base64 before it calls the origin).
 */
export type XlsxImageSources = "any" | "inline";

export interface SheetOptionsErrors {
  addInvalid(pointer: string, detail: string): void;
  addLimit(pointer: string, detail: string): void;
}

function checkCell(errors: SheetOptionsErrors, pointer: string, ref: string): void {
  const { row, col } = parseA1Cell(ref);
  if (row > EXCEL_MAX_ROWS || col > EXCEL_MAX_COLUMNS) errors.addLimit(pointer, `\`${ref}\` lies outside Excel's grid.`);
}

function checkComments(errors: SheetOptionsErrors, base: string, comments: readonly XlsxComment[]): void {
  if (comments.length > XLSX_MAX_COMMENTS_PER_SHEET) errors.addLimit(base, `A sheet holds at most ${XLSX_MAX_COMMENTS_PER_SHEET} notes here.`);
  const seen = new Map<string, number>();
  comments.forEach((comment, i) => {
    checkCell(errors, `${base}/${i}/cell`, comment.cell);
    const earlier = seen.get(comment.cell);
    if (earlier !== undefined) errors.addInvalid(`${base}/${i}/cell`, `\`${comment.cell}\` already has the note at ${base}/${earlier}; a cell holds one.`);
    else seen.set(comment.cell, i);
  });
}

function checkSpans(errors: SheetOptionsErrors, base: string, entries: readonly { range: string; level: number; hidden: boolean }[], parse: (ref: string) => Span, max: number, kind: "rows" | "columns"): void {
  const spans = entries.map((entry, i) => ({ i, span: parse(entry.range) }));
  for (const { i, span } of spans) {
    if (span.last > max) errors.addLimit(`${base}/${i}/range`, `\`${entries[i]!.range}\` lies outside Excel's grid (${max} ${kind}).`);
    if (entries[i]!.level === 0 && !entries[i]!.hidden) errors.addInvalid(`${base}/${i}`, "Level 0 without `hidden` changes nothing.");
  }
  spans.sort((a, b) => a.span.first - b.span.first);
  for (let k = 1; k < spans.length; k++) {
    const before = spans[k - 1]!;
    const after = spans[k]!;
    if (after.span.first <= before.span.last) {
      errors.addInvalid(`${base}/${Math.max(before.i, after.i)}/range`, `Overlaps \`${entries[Math.min(before.i, after.i)]!.range}\`; give each ${kind === "rows" ? "row" : "column"} one level.`);
    }
  }
}

function checkPrint(errors: SheetOptionsErrors, base: string, print: XlsxPrint): void {
  if (print.fit_to && print.scale !== undefined) errors.addInvalid(`${base}/scale`, "Either `fit_to` or `scale`: Excel prints by one of them.");
  if (print.print_area !== undefined && !rangeWithinGrid(parseA1Range(print.print_area))) errors.addLimit(`${base}/print_area`, `\`${print.print_area}\` lies outside Excel's grid.`);
  if (print.repeat_rows !== undefined && parseRowSpan(print.repeat_rows).last > EXCEL_MAX_ROWS) errors.addLimit(`${base}/repeat_rows`, `\`${print.repeat_rows}\` lies outside Excel's grid.`);
  if (print.repeat_columns !== undefined && parseColumnSpan(print.repeat_columns).last > EXCEL_MAX_COLUMNS) errors.addLimit(`${base}/repeat_columns`, `\`${print.repeat_columns}\` lies outside Excel's grid.`);
  for (const key of ["header", "footer"] as const) {
    const sections = print[key];
    if (!sections) continue;
    const length = headerFooterCode(sections).length;
    if (length > EXCEL_MAX_HEADER_FOOTER_CHARS) errors.addLimit(`${base}/${key}`, `Excel keeps at most ${EXCEL_MAX_HEADER_FOOTER_CHARS} characters of a ${key} once coded; this one has ${length}.`);
  }
}

function checkImage(errors: SheetOptionsErrors, pointer: string, image: XlsxImage, sources: XlsxImageSources): void {
  checkCell(errors, `${pointer}/anchor`, image.anchor);
  if (!("base64" in image.source)) {
    if (sources === "inline") errors.addInvalid(`${pointer}/source`, "The origin takes pictures as base64; the edge resolves `file_id` and `url` sources first.");
    return;
  }
  const at = `${pointer}/source/base64`;
  let bytes: Uint8Array;
  try {
    const size = measureBase64(image.source.base64);
    if (size > XLSX_MAX_IMAGE_BYTES) {
      errors.addLimit(at, `A picture has at most ${XLSX_MAX_IMAGE_BYTES} bytes here; this one has ${size}.`);
      return;
    }
    bytes = decodeBase64(image.source.base64);
  } catch (error) {
    if (!(error instanceof Base64Error)) throw error;
    errors.addInvalid(at, `The picture is not valid base64: ${error.message}.`);
    return;
  }
  if (!readImageFacts(bytes)) errors.addInvalid(at, "A picture is a PNG or JPEG image with a readable size.");
}

/** Notes, outlines, print setup and pictures of every sheet, each error with its JSON pointer. */
export function checkSheetOptions(errors: SheetOptionsErrors, request: SheetOptionsRequest, sources: XlsxImageSources): void {
  request.sheets.forEach((sheet, s) => {
    const base = `/sheets/${s}`;
    checkComments(errors, `${base}/comments`, sheet.comments);
    checkSpans(errors, `${base}/outline/rows`, sheet.outline.rows, parseRowSpan, EXCEL_MAX_ROWS, "rows");
    checkSpans(errors, `${base}/outline/columns`, sheet.outline.columns, parseColumnSpan, EXCEL_MAX_COLUMNS, "columns");
    if (sheet.print) checkPrint(errors, `${base}/print`, sheet.print);
    if (sheet.images.length > XLSX_MAX_IMAGES_PER_SHEET) errors.addLimit(`${base}/images`, `A sheet holds at most ${XLSX_MAX_IMAGES_PER_SHEET} pictures here.`);
    sheet.images.forEach((image, i) => checkImage(errors, `${base}/images/${i}`, image, sources));
  });
  const passwords = new Set([request.protection?.password, ...request.sheets.map((sheet) => sheet.protection?.password)].filter((p) => p !== undefined));
  if (passwords.size > XLSX_MAX_PASSWORDS) errors.addLimit("/sheets", `A workbook uses at most ${XLSX_MAX_PASSWORDS} different passwords here; this one has ${passwords.size}.`);
}
