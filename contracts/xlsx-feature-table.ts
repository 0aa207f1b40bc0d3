// What POST /v1/xlsx/generate writes, one row per request field. The OpenAPI description of the
// route is built from this table, and a test holds it to the request schema: a field added to
// the schema without a row here fails, so the document cannot fall behind the writer again.

export interface XlsxFeature {
  /** The request field, as a path: `sheets[].charts`, `cells["A1"].rich`. */
  field: string;
  feature: string;
}

export const XLSX_FEATURES: readonly XlsxFeature[] = [
  { field: "filename", feature: "The download's name." },
  { field: "timezone", feature: "IANA zone that `datetime` values with an offset are shown in." },
  { field: "styles", feature: "Named styles: font, fill, border, alignment, number format, and `locked`/`hide_formula` for protected sheets; each distinct look is stored once." },
  { field: "properties", feature: "Document properties (title, subject, creator, keywords, description, category)." },
  { field: "defined_names", feature: "Workbook-level names for ranges, in one namespace with table names." },
  { field: "protection", feature: "Locks the workbook's structure, optionally behind a password stored as Excel's salted SHA-512 hash." },
  { field: "output", feature: "A signed download `url`, inline `base64`, or both." },
  { field: "sheets[].name", feature: "Sheet names as Excel allows them; names Excel or the writer would alter are refused, not rewritten." },
  { field: "sheets[].columns", feature: "Typed columns (string, number, integer, boolean, date, datetime, percent, currency, url) with header, width or autofit, style and number format." },
  { field: "sheets[].rows", feature: "Row values as arrays or objects keyed by column; strings starting with `=` stay text." },
  { field: "sheets[].header_style", feature: "The header row's style." },
  { field: "sheets[].freeze", feature: "Frozen rows and columns." },
  { field: "sheets[].autofilter", feature: "Filter buttons over the header row or a range." },
  { field: "sheets[].merges", feature: "Merged ranges." },
  { field: "sheets[].cells", feature: "Cells by A1 reference: values, formulas (the only way to write one) and rich text (`rich: [{text, style}]`)." },
  { field: "sheets[].data_validations", feature: "Dropdown lists, whole/decimal/date/time/text-length comparisons and custom formulas, with prompts and error messages." },
  { field: "sheets[].conditional_formats", feature: "Cell value, colour scale, data bar, icon set, formula, top/bottom, duplicate/unique and text rules." },
  { field: "sheets[].tables", feature: "Excel tables with header buttons, banding, a style and a totals row." },
  { field: "sheets[].charts", feature: "Native column, bar, line, pie, doughnut, scatter and area charts (stacked forms too) over ranges of any sheet." },
  { field: "sheets[].images", feature: "PNG or JPEG pictures (`base64`, `file_id` or `url` sources) anchored at a cell with an offset and size." },
  { field: "sheets[].comments", feature: "Notes on cells, with author, hidden until hovered or always shown." },
  { field: "sheets[].outline", feature: "Row and column outline levels (groups) and hidden rows and columns." },
  { field: "sheets[].protection", feature: "Sheet protection, optionally behind a password stored as Excel's salted SHA-512 hash, with what users may still do." },
  { field: "sheets[].print", feature: "Orientation, paper, margins, fit-to-pages or scale, print area, repeated rows and columns, header and footer, gridlines, centring." },
];

/** The table as Markdown, for the OpenAPI description. */
export function xlsxFeatureTableMarkdown(): string {
  return ["| field | what it writes |", "|---|---|", ...XLSX_FEATURES.map((row) => `| \`${row.field}\` | ${row.feature.replace(/\|/g, "\\|")} |`)].join("\n");
}
