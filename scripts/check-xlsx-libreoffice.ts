// Builds a workbook holding every xlsx feature through the origin's engine and has
// LibreOffice convert it headless (to .ods and to .pdf): a conversion that fails or writes
// nothing means a part LibreOffice cannot read. Needs `soffice` (apt-get install libreoffice-calc).
//   node scripts/check-xlsx-libreoffice.ts [out-dir]
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateXlsx } from "../origin/xlsx/generate-xlsx.ts";
import { xlsxRequestSchema } from "../contracts/xlsx-request.ts";

const sales = {
  columns: [
    { key: "region", header: "Region" },
    { key: "q1", header: "Q1", type: "number" },
    { key: "q2", header: "Q2", type: "number" },
    { key: "site", header: "Site", type: "url" },
    { key: "due", header: "Due", type: "date" },
  ],
  rows: [
    ["North", 10, 12, "https://example.com/n", "2026-01-05"],
    ["South", 7, 9, "https://example.com/s", "2026-02-05"],
    ["East", 4, 11, "mailto:east@example.com", "2026-03-05"],
  ],
};

// A 4 by 3 PNG (sharp's), so the picture has a real size for LibreOffice to place.
const PICTURE = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWMwTjsDRww4OQA/XBC9rAe9TAAAAABJRU5ErkJggg==";

const layout = {
  name: "Layout",
  columns: [
    { key: "item", header: "Item" },
    { key: "qty", header: "Qty", type: "integer", style: "input" },
    { key: "note", header: "Note" },
  ],
  rows: [
    ["Paper", 10, "a"],
    ["Ink", 2, "b"],
    ["Pens", 25, "c"],
    ["Tape", 4, "d"],
  ],
  cells: { E1: { rich: [{ text: "Rich ", style: "hdr" }, { text: "text" }] } },
  comments: [
    { cell: "A2", text: "A note", author: "Check" },
    { cell: "E1", text: "Always shown", visible: true },
  ],
  outline: { rows: [{ range: "3:4", level: 1, hidden: true }, { range: "8:9", level: 2 }], columns: [{ range: "C", level: 1, hidden: true }] },
  protection: { password: "sheet", allow: ["sort"] },
  print: { orientation: "landscape", paper: "a4", fit_to: { width: 1 }, print_area: "A1:E5", repeat_rows: "1", header: { center: "{sheet}" }, footer: { right: "Page {page} of {pages}" }, gridlines: true },
  images: [{ source: { base64: PICTURE }, anchor: "G2", width: 120, height: 90, alt_text: "A picture" }],
};

const everything = {
  filename: "everything.xlsx",
  styles: { hdr: { bold: true, fill: "#F2F2F2" }, warn: { color: "#9C0006", fill: "#FFC7CE" }, input: { locked: false } },
  properties: { title: "Every feature", creator: "check-xlsx-libreoffice" },
  sheets: [
    {
      name: "Sales 2025",
      header_style: "hdr",
      freeze: { rows: 1 },
      ...sales,
      merges: ["G1:H1"],
      cells: { G1: { value: "Notes" }, G8: { formula: "SUM(B2:B4)" } },
      tables: [{ name: "Sales", range: "A1:E5", totals_row: true, columns: [{ total_label: "Total" }, { total: "sum" }, { total: "average" }] }],
      charts: (["column", "bar", "line", "area", "pie", "doughnut", "scatter"] as const).map((type, i) => ({
        type,
        ...(type === "column" || type === "area" ? { subtype: "stacked" } : type === "bar" ? { subtype: "percent_stacked" } : {}),
        title: `A ${type} chart`,
        anchor: `J${2 + i * 16}`,
        series: [
          { name: "Q1", categories: type === "scatter" ? "C2:C4" : "A2:A4", values: "B2:B4" },
          ...(type === "pie" ? [] : [{ name: "Q2", categories: type === "scatter" ? "B2:B4" : "A2:A4", values: "C2:C4" }]),
        ],
      })),
      data_validations: [
        { type: "whole", range: "B7:C9", operator: "between", values: [0, 1000] },
        { type: "decimal", range: "D7:D9", operator: "greater_than", values: [0.5] },
        { type: "date", range: "E7:E9", operator: "less_than", values: ["2026-12-31"] },
        { type: "time", range: "F7:F9", operator: "between", values: ["09:00", "17:30"] },
        { type: "text_length", range: "A7:A9", operator: "less_than", values: [20] },
        { type: "custom", range: "H7:H9", formula: "ISNUMBER(H7)" },
        { type: "list", range: "I7:I9", values: ["open", "paid"] },
      ],
      conditional_formats: [
        { type: "cell_value", range: "B2:B4", operator: "greater_than", values: [5], style: "warn" },
        { type: "color_scale", range: "C2:C4", colors: ["#F8696B", "#FFEB84", "#63BE7B"] },
        { type: "data_bar", range: "B2:B4" },
        { type: "icon_set", range: "C2:C4", icons: "3_traffic_lights" },
        { type: "formula", range: "A2:C4", formula: "$B2>$C2", style: "warn" },
        { type: "top", range: "B2:B4", rank: 1, style: "warn" },
        { type: "duplicate", range: "A2:A4", style: "warn" },
        { type: "text", range: "A2:A4", operator: "contains", text: "th", style: "warn" },
      ],
    },
    { name: "Summary", columns: [{ key: "note", header: "Note" }], rows: [["charts read the other sheet"]], charts: [{ type: "pie", anchor: "C3", series: [{ categories: "'Sales 2025'!A2:A4", values: "'Sales 2025'!B2:B4" }] }] },
    layout,
  ],
  defined_names: [{ name: "FirstQuarter", range: "'Sales 2025'!B2:B4" }],
  protection: { password: "structure" },
};

const outDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "xlsx-lo-"));
const xlsx = join(outDir, "everything.xlsx");
await generateXlsx(xlsxRequestSchema.parse(everything), createWriteStream(xlsx));
for (const format of ["ods", "pdf"]) {
  const output = execFileSync("soffice", ["--headless", "--norestore", "--convert-to", format, "--outdir", outDir, xlsx], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const converted = join(outDir, `everything.${format}`);
  const size = statSync(converted).size;
  if (size === 0) throw new Error(`LibreOffice wrote an empty ${format}`);
  console.log(`${format}: ${size} bytes  (${output.trim()})`);
}
console.log(`LibreOffice converted ${xlsx} without error`);
