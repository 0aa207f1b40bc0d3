// 1,000,000 cells (100,000 rows x 10 mixed columns, two styles) through the origin's xlsx
// engine and through bare exceljs streaming writers on the same data. Each writer runs in
// its own child process, so its peak RSS (getrusage maxrss) is its own; the request's rows
// are built in place, so no second copy from schema parsing inflates the peak. A fourth
// child times the schema parse of the same request on its own.
//   npm exec -- node scripts/bench-xlsx.ts
import { execFileSync } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import { generateXlsx } from "../origin/xlsx/generate-xlsx.ts";
import { xlsxRequestSchema, type XlsxRequest } from "../contracts/xlsx-request.ts";

const ROWS = 100_000;
const CHILDREN = ["engine", "exceljs-tuned", "exceljs-naive", "schema-parse"] as const;
type Child = (typeof CHILDREN)[number];

interface Result {
  child: Child;
  seconds: number;
  /** User + system CPU seconds of the timed part: steadier than wall time on a shared machine. */
  cpuSeconds: number;
  cellsPerSecond: number;
  peakRssMB: number;
  bytes: number;
}

const COLUMNS = [
  { key: "id", header: "ID", type: "integer" },
  { key: "name", header: "Name", type: "string" },
  { key: "city", header: "City", type: "string" },
  { key: "amount", header: "Amount", type: "currency", style: "money" },
  { key: "share", header: "Share", type: "percent" },
  { key: "qty", header: "Quantity", type: "number" },
  { key: "paid", header: "Paid", type: "boolean" },
  { key: "issued", header: "Issued", type: "date" },
  { key: "updated", header: "Updated", type: "datetime" },
  { key: "note", header: "Note", type: "string" },
] as const;
const CELLS = (ROWS + 1) * COLUMNS.length;
const CITIES = ["Berlin", "Lisbon", "Osaka", "Lima", "Accra", "Oslo", "Quito", "Hanoi"];

type BenchRow = (string | number | boolean)[];

function benchRows(): BenchRow[] {
  const rows: BenchRow[] = [];
  for (let r = 0; r < ROWS; r++) {
    const day = String(1 + (r % 28)).padStart(2, "0");
    const month = String(1 + (r % 12)).padStart(2, "0");
    rows.push([
      r + 1,
      `Customer ${r}`,
      CITIES[r % CITIES.length]!,
      Math.round(r * 137.31) / 100,
      (r % 100) / 100,
      r % 977,
      r % 3 === 0,
      `2026-${month}-${day}`,
      `2026-${month}-${day}T${String(r % 24).padStart(2, "0")}:15:00Z`,
      `note ${r % 1000}`,
    ]);
  }
  return rows;
}

function benchRequest(rows: BenchRow[]): unknown {
  return {
    timezone: "Europe/Berlin",
    styles: { hdr: { bold: true, fill: "#F2F2F2" }, money: { num_format: "#,##0.00 [$€-x-euro2]" } },
    sheets: [{ name: "Data", header_style: "hdr", freeze: { rows: 1 }, columns: COLUMNS, rows }],
  };
}

/** The parsed request with the rows attached afterwards: what the origin holds once validated. */
function inPlaceRequest(): XlsxRequest {
  const request = xlsxRequestSchema.parse(benchRequest([]));
  request.sheets[0]!.rows = benchRows();
  return request;
}

function discardingSink(): Writable & { bytes: number } {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.bytes += chunk.length;
      callback();
    },
  }) as Writable & { bytes: number };
  sink.bytes = 0;
  return sink;
}

async function measure(child: Child, run: () => Promise<number>): Promise<Result> {
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  const bytes = await run();
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  return {
    child,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cellsPerSecond: Math.round(CELLS / seconds),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    bytes,
  };
}

async function runEngine(): Promise<Result> {
  const request = inPlaceRequest();
  return measure("engine", async () => {
    const sink = discardingSink();
    await generateXlsx(request, sink);
    return sink.bytes;
  });
}

// The bare writers get the values exceljs wants (Date objects for dates), converted in place before timing.
async function runBare(tuned: boolean): Promise<Result> {
  const rows: ExcelJS.CellValue[][] = benchRows();
  for (const row of rows) {
    row[7] = new Date(`${row[7] as string}T00:00:00Z`);
    row[8] = new Date(row[8] as string);
  }
  return measure(tuned ? "exceljs-tuned" : "exceljs-naive", async () => {
    const sink = discardingSink();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet("Data", { views: [{ state: "frozen", ySplit: 1 }] });
    const header = { font: { bold: true }, fill: { type: "pattern", pattern: "solid", fgColor: { argb: "FFF2F2F2" } } } as const;
    const formats = [{ numFmt: "0" }, {}, {}, { numFmt: "#,##0.00 [$€-x-euro2]" }, { numFmt: "0.00%" }, {}, {}, { numFmt: "yyyy-mm-dd" }, { numFmt: "yyyy-mm-dd hh:mm:ss" }, {}];
    sheet.columns = COLUMNS.map((column, c) => ({ header: column.header, key: column.key, width: 14, style: formats[c] }));
    sheet.getRow(1).eachCell((cell) => (cell.style = header));
    sheet.getRow(1).commit();
    for (const values of rows) {
      const row = sheet.addRow(values);
      // Tuned: one shared style object per column, which exceljs's style cache recognises.
      if (tuned) for (let c = 0; c < formats.length; c++) row.getCell(c + 1).style = formats[c]!;
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
    return sink.bytes;
  });
}

async function runSchemaParse(): Promise<Result> {
  const raw = benchRequest(benchRows());
  return measure("schema-parse", async () => {
    xlsxRequestSchema.parse(raw);
    return 0;
  });
}

const RUNNERS: Record<Child, () => Promise<Result>> = {
  engine: runEngine,
  "exceljs-tuned": () => runBare(true),
  "exceljs-naive": () => runBare(false),
  "schema-parse": runSchemaParse,
};

function runParent(): void {
  const script = fileURLToPath(import.meta.url);
  const results = CHILDREN.map((child) => JSON.parse(execFileSync(process.execPath, [script, child], { encoding: "utf8" })) as Result);
  console.log(`${ROWS} rows x ${COLUMNS.length} columns + header = ${CELLS} cells, Node ${process.version}`);
  for (const r of results) {
    const bytes = r.child === "schema-parse" ? "(not in the times above)" : `${r.bytes} bytes`;
    console.log(
      `${r.child.padEnd(14)} ${r.seconds.toFixed(2).padStart(6)} s wall (CPU ${r.cpuSeconds.toFixed(2).padStart(5)} s)  ${String(r.cellsPerSecond).padStart(7)} cells/s  peak RSS ${String(r.peakRssMB).padStart(4)} MB  ${bytes}`,
    );
  }
  const [engine, tuned, naive] = results as [Result, Result, Result];
  console.log(`engine / exceljs-tuned: ${(engine.seconds / tuned.seconds).toFixed(2)}x wall, ${(engine.cpuSeconds / tuned.cpuSeconds).toFixed(2)}x CPU`);
  console.log(`engine / exceljs-naive: ${(engine.seconds / naive.seconds).toFixed(2)}x wall, ${(engine.cpuSeconds / naive.cpuSeconds).toFixed(2)}x CPU`);
  const targets = [
    ["engine >= 500,000 cells/s", engine.cellsPerSecond >= 500_000],
    ["engine peak RSS < 200 MB", engine.peakRssMB < 200],
    ["engine within 1.2x of exceljs-tuned (wall)", engine.seconds <= 1.2 * tuned.seconds],
  ] as const;
  for (const [name, met] of targets) console.log(`${met ? "met   " : "MISSED"} ${name}`);
}

const child = process.argv[2] as Child | undefined;
if (child && child in RUNNERS) process.stdout.write(JSON.stringify(await RUNNERS[child]()));
else runParent();
