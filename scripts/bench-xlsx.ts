// 1,000,000 cells (100,000 rows x 10 mixed columns, two styles) through the origin's xlsx
// engine (shared strings chosen per column, then forced on and off) and through a tuned bare
// exceljs streaming writer on the same data, plus the schema parse; then the largest body the
// API accepts (MAX_JSON_BODY_BYTES of JSON), parsed and validated, and written. Each runs in
// its own child process, so its peak RSS (getrusage maxrss) is its own; `rss before` is the
// child's RSS once its input is in memory, so the writer's own share is the difference.
// Wall time on a shared machine depends on the load; CPU time (all threads, zlib's included)
// is steadier, and ratios are only compared within one run.
// `--part end-to-end` (scripts/lib/bench-xlsx-end-to-end.ts): a 200,000-cell request through the
// running edge + origin pair beside Python's XlsxWriter (apt-get install -y python3-xlsxwriter).
//   npm run bench:xlsx [-- --part engine|end-to-end|all]
import { execFileSync } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import type ExcelJS from "exceljs";
import { generateXlsx } from "../origin/xlsx/generate-xlsx.ts";
import type { SharedStringsMode } from "../origin/xlsx/shared-strings.ts";
import { assertXlsxWritable, xlsxRequestSchema, type XlsxRequest } from "../contracts/xlsx-request.ts";
import { MAX_JSON_BODY_BYTES } from "../workers/middleware/json-body.ts";
import { benchXlsxEndToEnd } from "./lib/bench-xlsx-end-to-end.ts";

const ROWS = 100_000;
const RUNS_PER_CHILD = Number(process.env.BENCH_XLSX_RUNS ?? 3);
const CHILDREN = ["engine", "engine-shared", "engine-inline", "exceljs-tuned", "schema-parse", "largest-parse", "largest-engine"] as const;
type Child = (typeof CHILDREN)[number];

interface Result {
  child: Child;
  cells: number;
  seconds: number;
  /** User + system CPU seconds of the timed part, every thread included. */
  cpuSeconds: number;
  cellsPerSecond: number;
  rssBeforeMB: number;
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
const CITIES = ["Berlin", "Lisbon", "Osaka", "Lima", "Accra", "Oslo", "Quito", "Hanoi"];

type BenchRow = (string | number | boolean)[];

function benchRow(r: number): BenchRow {
  const day = String(1 + (r % 28)).padStart(2, "0");
  const month = String(1 + (r % 12)).padStart(2, "0");
  return [
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
  ];
}

function benchRows(count = ROWS): BenchRow[] {
  return Array.from({ length: count }, (_, r) => benchRow(r));
}

// The origin's rows come out of JSON.parse, whose strings are flat. Rows built by template
// literals hold rope strings, and flattening them would be charged to whichever writer reads them first.
function parsedBenchRows(): BenchRow[] {
  return JSON.parse(JSON.stringify(benchRows())) as BenchRow[];
}

function benchRequest(rows: BenchRow[]): Record<string, unknown> {
  return {
    timezone: "Europe/Berlin",
    styles: { hdr: { bold: true, fill: "#F2F2F2" }, money: { num_format: "#,##0.00 [$€-x-euro2]" } },
    sheets: [{ name: "Data", header_style: "hdr", freeze: { rows: 1 }, columns: COLUMNS, rows }],
  };
}

/** The largest body the API accepts: bench rows up to MAX_JSON_BODY_BYTES of JSON. */
function largestBody(): string {
  const rowBytes = JSON.stringify(benchRow(123_456)).length + 1;
  const overhead = JSON.stringify(benchRequest([])).length;
  const rows = Math.floor((MAX_JSON_BODY_BYTES - overhead) / rowBytes);
  const body = JSON.stringify(benchRequest(benchRows(rows)));
  if (body.length > MAX_JSON_BODY_BYTES) throw new Error(`largest body overshoots: ${body.length}`);
  return body;
}

/** The parsed request with the rows attached afterwards: what the origin holds once validated. */
function inPlaceRequest(): XlsxRequest {
  const request = xlsxRequestSchema.parse(benchRequest([]));
  request.sheets[0]!.rows = parsedBenchRows();
  return request;
}

function cellsOf(rows: number): number {
  return (rows + 1) * COLUMNS.length;
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

async function measure(child: Child, cells: number, run: () => Promise<number>): Promise<Result> {
  // Children run with --expose-gc: the input's construction garbage is collected before `rss before`.
  (globalThis as { gc?: () => void }).gc?.();
  const rssBeforeMB = Math.round(process.memoryUsage().rss / 1024 / 1024);
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  const bytes = await run();
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  return {
    child,
    cells,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cellsPerSecond: Math.round(cells / seconds),
    rssBeforeMB,
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    bytes,
  };
}

async function runEngine(child: Child, sharedStrings: SharedStringsMode): Promise<Result> {
  const request = inPlaceRequest();
  return measure(child, cellsOf(ROWS), async () => {
    const sink = discardingSink();
    await generateXlsx(request, sink, { sharedStrings });
    return sink.bytes;
  });
}

// The bare writer gets the values exceljs wants (Date objects for dates), converted in place before timing.
// exceljs is loaded only in its own child: loaded in every child, its modules (about 20 MB) were
// counted in the engine's RSS.
async function runTunedExceljs(): Promise<Result> {
  const { default: ExcelJS } = await import("exceljs");
  const rows: ExcelJS.CellValue[][] = parsedBenchRows();
  for (const row of rows) {
    row[7] = new Date(`${row[7] as string}T00:00:00Z`);
    row[8] = new Date(row[8] as string);
  }
  return measure("exceljs-tuned", cellsOf(ROWS), async () => {
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
      // One shared style object per column, which exceljs's style cache recognises.
      for (let c = 0; c < formats.length; c++) row.getCell(c + 1).style = formats[c]!;
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
    return sink.bytes;
  });
}

async function runSchemaParse(): Promise<Result> {
  const raw = benchRequest(parsedBenchRows());
  return measure("schema-parse", cellsOf(ROWS), () => {
    xlsxRequestSchema.parse(raw);
    return Promise.resolve(0);
  });
}

// What the origin does with the largest body before writing: JSON.parse of the request the edge
// checked and sent, and the writer's whole-request check (the schema ran once, at the edge).
async function runLargestParse(): Promise<Result> {
  // Checked and serialised in a child of its own, so the schema's garbage is not in this RSS.
  const body = execFileSync(process.execPath, [fileURLToPath(import.meta.url), EDGE_FORM], { encoding: "utf8", maxBuffer: 2 * MAX_JSON_BODY_BYTES });
  const rows = (JSON.parse(body) as { sheets: [{ rows: unknown[] }] }).sheets[0].rows.length;
  return measure("largest-parse", cellsOf(rows), () => {
    assertXlsxWritable(JSON.parse(body) as XlsxRequest, "inline");
    return Promise.resolve(body.length);
  });
}

async function runLargestEngine(): Promise<Result> {
  const request = xlsxRequestSchema.parse(JSON.parse(largestBody()));
  return measure("largest-engine", cellsOf(request.sheets[0]!.rows.length), async () => {
    const sink = discardingSink();
    await generateXlsx(request, sink);
    return sink.bytes;
  });
}

/** The child that prints the largest body as the edge sends it to the origin: checked, defaults filled in. */
const EDGE_FORM = "largest-edge-form";

const RUNNERS: Record<Child, () => Promise<Result>> = {
  engine: () => runEngine("engine", "auto"),
  "engine-shared": () => runEngine("engine-shared", "always"),
  "engine-inline": () => runEngine("engine-inline", "never"),
  "exceljs-tuned": runTunedExceljs,
  "schema-parse": runSchemaParse,
  "largest-parse": runLargestParse,
  "largest-engine": runLargestEngine,
};

function runParent(): void {
  const script = fileURLToPath(import.meta.url);
  const loadBefore = loadavg()[0]!;
  const runChild = (child: Child): Result => JSON.parse(execFileSync(process.execPath, ["--expose-gc", script, child], { encoding: "utf8", maxBuffer: 1 << 20 })) as Result;
  // Each writer runs RUNS_PER_CHILD times, the writers in turn, and its median run is reported:
  // one run of each swung by a third between runs on this shared machine.
  const runs = new Map<Child, Result[]>(CHILDREN.map((child) => [child, []]));
  for (let round = 0; round < RUNS_PER_CHILD; round++) for (const child of CHILDREN) runs.get(child)!.push(runChild(child));
  const median = (list: Result[]): Result => [...list].sort((a, b) => a.seconds - b.seconds)[list.length >> 1]!;
  const results = new Map(CHILDREN.map((child) => [child, median(runs.get(child)!)]));
  console.log(`${ROWS} rows x ${COLUMNS.length} columns + header = ${cellsOf(ROWS)} cells, Node ${process.version}, load average ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores; each writer's median of ${RUNS_PER_CHILD} runs (BENCH_XLSX_RUNS)`);
  for (const r of results.values()) {
    const what = r.child.startsWith("largest-parse") ? `${r.bytes} bytes of JSON` : r.child === "schema-parse" ? "" : `${r.bytes} bytes out`;
    console.log(
      `${r.child.padEnd(15)} ${String(r.cells).padStart(8)} cells ${r.seconds.toFixed(2).padStart(6)} s wall (CPU ${r.cpuSeconds.toFixed(2).padStart(5)} s)  ${String(r.cellsPerSecond).padStart(8)} cells/s  ${String(Math.round(r.cells / r.cpuSeconds)).padStart(8)} cells/CPU-s  RSS before ${String(r.rssBeforeMB).padStart(4)} MB, peak ${String(r.peakRssMB).padStart(4)} MB  ${what}`,
    );
  }
  const engine = results.get("engine")!;
  const largest = results.get("largest-engine")!;
  const largestParse = results.get("largest-parse")!;
  // The writer's memory is what writing adds to a process that already holds Node, the origin's
  // modules and the parsed request (about 60, 45 and 80 MB here): the target is set for the writer.
  const writerPeakMB = Math.max(engine.peakRssMB - engine.rssBeforeMB, largest.peakRssMB - largest.rssBeforeMB);
  console.log(`writer's own peak: ${engine.peakRssMB - engine.rssBeforeMB} MB at 1M cells, ${largest.peakRssMB - largest.rssBeforeMB} MB for the largest body, over the ${engine.rssBeforeMB} / ${largest.rssBeforeMB} MB the child holds before writing (Node, its modules and the parsed request)`);
  console.log(`largest body: parse and validate peak ${largestParse.peakRssMB} MB (whole process), then written at ${largest.peakRssMB} MB`);
  const tuned = results.get("exceljs-tuned")!;
  const wallRatio = tuned.seconds / engine.seconds;
  const cpuRatio = tuned.cpuSeconds / engine.cpuSeconds;
  console.log(`engine vs exceljs-tuned: ${wallRatio.toFixed(2)}x the cells/s (wall), ${cpuRatio.toFixed(2)}x per CPU second`);
  const targets = [
    ["engine >= 2.5x exceljs-tuned cells/s (wall)", wallRatio >= 2.5],
    ["engine >= 1,200,000 cells/s (wall)", engine.cellsPerSecond >= 1_200_000],
    ["writer's own peak RSS < 150 MB (1M cells and the largest body)", writerPeakMB < 150],
  ] as const;
  for (const [name, met] of targets) console.log(`${met ? "met   " : "MISSED"} ${name}`);
}

const child = process.argv[2] as Child | undefined;
if (process.argv[2] === EDGE_FORM) {
  process.stdout.write(JSON.stringify(xlsxRequestSchema.parse(JSON.parse(largestBody()))));
} else if (child && child in RUNNERS) {
  process.stdout.write(JSON.stringify(await RUNNERS[child]()));
} else {
  const { values } = parseArgs({ options: { part: { type: "string", default: "all" } } });
  if (!["engine", "end-to-end", "all"].includes(values.part)) throw new Error("bench:xlsx: --part engine|end-to-end|all");
  if (values.part !== "end-to-end") runParent();
  if (values.part !== "engine") await benchXlsxEndToEnd();
}
