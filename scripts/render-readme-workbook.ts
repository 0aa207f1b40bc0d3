// Makes the README's picture of a generated workbook (docs/xlsx-sales.png): the README's
// "Excel table and native chart" request goes through the origin's engine, LibreOffice
// converts the workbook to PDF (one page sized to the sheet), and the page is drawn at 80 dpi
// with a white margin and stored as a palette PNG so the picture stays small.
// Needs `soffice` (apt-get install libreoffice-calc) and `pdftoppm` (poppler-utils).
//   node scripts/render-readme-workbook.ts [out.png]
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { generateXlsx } from "../origin/xlsx/generate-xlsx.ts";
import { xlsxRequestSchema } from "../contracts/xlsx-request.ts";

// The README's request, field for field.
const sales = {
  filename: "sales.xlsx",
  sheets: [
    {
      name: "Sales 2025",
      columns: [
        { key: "region", header: "Region" },
        { key: "q1", header: "Q1", type: "number" },
        { key: "q2", header: "Q2", type: "number" },
      ],
      rows: [
        ["North", 10, 12],
        ["South", 7, 9],
        ["East", 4, 11],
      ],
      tables: [{ name: "Sales", range: "A1:C5", totals_row: true, columns: [{ total_label: "Total" }, { total: "sum" }, { total: "sum" }] }],
      charts: [
        {
          type: "column",
          subtype: "stacked",
          title: "By region",
          anchor: "E2",
          series: [
            { name: "Q1", categories: "A2:A4", values: "B2:B4" },
            { name: "Q2", categories: "'Sales 2025'!A2:A4", values: "C2:C4" },
          ],
        },
      ],
    },
  ],
};

const DPI = 80;
const MARGIN_PX = 12;

const out = process.argv[2] ?? "docs/xlsx-sales.png";
const dir = mkdtempSync(join(tmpdir(), "readme-workbook-"));
const xlsx = join(dir, "sales.xlsx");
const file = createWriteStream(xlsx);
await generateXlsx(xlsxRequestSchema.parse(sales), file);
// One page per sheet, sized to what the sheet holds, so the chart is not cut at a paper edge.
const pdfFilter = 'pdf:calc_pdf_Export:{"SinglePageSheets":{"type":"boolean","value":"true"}}';
execFileSync("soffice", ["--headless", "--norestore", "--convert-to", pdfFilter, "--outdir", dir, xlsx], { stdio: "ignore" });
execFileSync("pdftoppm", ["-png", "-r", String(DPI), "-f", "1", "-l", "1", "-singlefile", join(dir, "sales.pdf"), join(dir, "page")]);
await sharp(readFileSync(join(dir, "page.png")))
  .extend({ top: MARGIN_PX, bottom: MARGIN_PX, left: MARGIN_PX, right: MARGIN_PX, background: "#ffffff" })
  .png({ palette: true, colours: 64, compressionLevel: 9 })
  .toFile(out);
console.log(`${out} from ${xlsx}`);
