// bench:xlsx's end-to-end part: a 200,000-cell POST /v1/xlsx/generate through a running edge +
// origin pair (started as `npm start` starts it), from the request sent to the workbook's last
// byte downloaded, beside Python's XlsxWriter (constant_memory, Debian package python3-xlsxwriter, run by /usr/bin/python3)
// writing the same cells to a local file in the same run. Then where the service's time goes,
// each stage timed alone in this process on the same body, and the origin's peak RSS (VmHWM)
// after the largest body the API accepts, sent as a job.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { assertXlsxWritable, countCells, xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { xlsxRequestLines } from "../../contracts/origin/xlsx-request-lines.ts";
import { generateXlsx } from "../../origin/xlsx/generate-xlsx.ts";
import { XlsxRequestStream } from "../../origin/xlsx/request-stream.ts";
import { startServicePair, type ServicePair } from "../../test/support/service-pair.ts";
import { MAX_JSON_BODY_BYTES } from "../../workers/middleware/json-body.ts";

const RUNS = 3;
const TARGET = 0.4;
const COLUMNS = 10;
// 19,999 rows and the header row: 200,000 cells, the synchronous limit.
const ROWS = 19_999;

const column = (c: number) => ({ key: `c${c}`, header: `Column ${c}`, type: c % 2 === 0 ? "string" : "number" });
const row = (r: number) => Array.from({ length: COLUMNS }, (_, c) => (c % 2 === 0 ? `item ${r} text ${c}` : r * 10 + c + 0.25));
const body = (rows: number) => JSON.stringify({ filename: "bench.xlsx", sheets: [{ name: "Data", columns: Array.from({ length: COLUMNS }, (_, c) => column(c)), rows: Array.from({ length: rows }, (_, r) => row(r)) }] });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const seconds = (startedAt: number) => (performance.now() - startedAt) / 1000;

/** XlsxWriter's time to write the same header and rows (read before its clock starts). */
const XLSXWRITER = `
import json, sys, time, xlsxwriter
request = json.load(open(sys.argv[1]))
sheet = request["sheets"][0]
started = time.perf_counter()
workbook = xlsxwriter.Workbook(sys.argv[2], {"constant_memory": True})
worksheet = workbook.add_worksheet(sheet["name"])
worksheet.write_row(0, 0, [c["header"] for c in sheet["columns"]])
for r, values in enumerate(sheet["rows"]):
    worksheet.write_row(r + 1, 0, values)
workbook.close()
print(time.perf_counter() - started)
`;

function xlsxWriterSeconds(requestFile: string, dir: string): number {
  return Number(execFileSync("/usr/bin/python3", ["-c", XLSXWRITER, requestFile, join(dir, "xlsxwriter.xlsx")], { encoding: "utf8" }).trim());
}

async function endToEndSeconds(pair: ServicePair, requestBody: string): Promise<{ seconds: number; answered: number; bytes: number }> {
  const startedAt = performance.now();
  const response = await fetch(`${pair.edgeUrl}/v1/xlsx/generate`, { method: "POST", headers: { Authorization: `Bearer ${pair.apiKey}`, "Content-Type": "application/json" }, body: requestBody });
  if (response.status !== 200) throw new Error(`xlsx.generate answered ${response.status}: ${await response.text()}`);
  const { url } = await response.json<{ url: string }>();
  const answered = seconds(startedAt);
  const workbook = new Uint8Array(await (await fetch(url)).arrayBuffer());
  if (workbook[0] !== 0x50 || workbook[1] !== 0x4b) throw new Error("the download is not a zip");
  return { seconds: seconds(startedAt), answered, bytes: workbook.byteLength };
}

/** The origin's work on the edge's request lines: read in 64 KiB chunks as a socket hands them over, checked and written. */
async function readAndWrite(lines: Buffer): Promise<unknown> {
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < lines.length; at += 1 << 16) controller.enqueue(lines.subarray(at, at + (1 << 16)));
      controller.close();
    },
  });
  const { request, rows, end } = await new XlsxRequestStream(chunks).request();
  await generateXlsx(request, new Writable({ write: (_chunk, _encoding, done) => done() }), { rows });
  return end();
}

/** Each stage of the service's compute on `requestBody`, alone, in this process (median of RUNS). */
async function stageSeconds(requestBody: string): Promise<[string, number][]> {
  const raw = JSON.parse(requestBody) as unknown;
  const request = xlsxRequestSchema.parse(raw);
  const lines = Buffer.from(xlsxRequestLines(request));
  const stages: [string, () => unknown][] = [
    ["JSON.parse of the body (edge)", () => JSON.parse(requestBody) as unknown],
    ["schema validation (edge)", () => xlsxRequestSchema.parse(raw)],
    ["whole-request checks and cell count (edge)", () => {
      assertXlsxWritable(request);
      return countCells(request);
    }],
    ["writing the checked request as lines for the origin (edge)", () => xlsxRequestLines(request)],
    ["reading the lines, checking and writing the workbook (origin)", () => readAndWrite(lines)],
  ];
  const results: [string, number][] = [];
  for (const [name, stage] of stages) {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const startedAt = performance.now();
      await stage();
      runs.push(seconds(startedAt));
    }
    results.push([name, median(runs)]);
  }
  return results;
}

/**
 * The origin process of the pair: the node whose script is origin/server.ts, with the pair's origin
 * port. `npm start` runs it under scripts/lib/exit-with-parent.ts, whose command line names
 * origin/server.ts too (as its argument) and whose RSS is a bare node's.
 */
function originPid(pair: ServicePair): number | null {
  const port = new URL(pair.originUrl).port;
  for (const entry of execFileSync("ls", ["/proc"], { encoding: "utf8" }).split("\n")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const script = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[1] ?? "";
      const environment = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (script.endsWith("origin/server.ts") && environment.includes(`PORT=${port}`)) return Number(entry);
    } catch {
      // A process that ended or is not ours to read.
    }
  }
  return null;
}

const peakRssMB = (pid: number | null) => {
  if (pid === null) return NaN;
  const kB = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kB) / 1024);
};

/** The largest body the API accepts (MAX_JSON_BODY_BYTES), as a job: its cells, and once succeeded. */
async function largestAsJob(pair: ServicePair): Promise<{ bytes: number; cells: number; seconds: number }> {
  const rowBytes = JSON.stringify(row(123_456)).length + 1;
  const rows = Math.floor((MAX_JSON_BODY_BYTES - 1024) / rowBytes);
  const request = JSON.parse(body(rows)) as Record<string, unknown>;
  const requestBody = JSON.stringify({ ...request, mode: "async" });
  const headers = { Authorization: `Bearer ${pair.apiKey}`, "Content-Type": "application/json" };
  const startedAt = performance.now();
  const send = () => fetch(`${pair.edgeUrl}/v1/xlsx/generate`, { method: "POST", headers, body: requestBody });
  // Building the body took long enough for the server to close undici's keep-alive socket (EPIPE).
  const accepted = await send().catch(send);
  if (accepted.status !== 202) throw new Error(`the largest body answered ${accepted.status}: ${(await accepted.text()).slice(0, 300)}`);
  const { status_url } = await accepted.json<{ status_url: string }>();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const job = await (await fetch(new URL(status_url, pair.edgeUrl), { headers })).json<{ status: string; error?: unknown }>();
    if (job.status === "succeeded") return { bytes: requestBody.length, cells: (rows + 1) * COLUMNS, seconds: seconds(startedAt) };
    if (job.status === "failed" || job.status === "cancelled") throw new Error(`the largest body's job ${job.status}: ${JSON.stringify(job.error)}`);
  }
}

export async function benchXlsxEndToEnd(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pixelpress-bench-xlsx-"));
  const pair = await startServicePair();
  try {
    const requestBody = body(ROWS);
    const requestFile = join(dir, "request.json");
    writeFileSync(requestFile, requestBody);
    const pid = originPid(pair);
    const atStart = peakRssMB(pid);
    await endToEndSeconds(pair, requestBody);
    const service: number[] = [];
    const answered: number[] = [];
    const local: number[] = [];
    let downloaded = 0;
    for (let i = 0; i < RUNS; i++) {
      const run = await endToEndSeconds(pair, requestBody);
      service.push(run.seconds);
      answered.push(run.answered);
      downloaded = run.bytes;
      local.push(xlsxWriterSeconds(requestFile, dir));
    }
    const ratio = median(service) / median(local);
    console.log(`\nEnd to end: ${(ROWS + 1) * COLUMNS} cells (${COLUMNS} columns, strings and numbers, ${requestBody.length} bytes of JSON), median of ${RUNS}`);
    console.log(`POST /v1/xlsx/generate, request sent to last byte downloaded: ${median(service).toFixed(2)} s (${service.map((s) => s.toFixed(2)).join(", ")}), ${downloaded} bytes`);
    console.log(`Python XlsxWriter (constant_memory) writing the same cells locally: ${median(local).toFixed(2)} s (${local.map((s) => s.toFixed(2)).join(", ")})`);
    console.log(`ratio service / XlsxWriter: ${ratio.toFixed(2)}  ${ratio <= TARGET ? "met" : "NOT MET"} (target <= ${TARGET})`);
    console.log(`where the service's time goes: answered (stored in R2, link signed) after ${median(answered).toFixed(2)} s, downloaded in the remaining ${(median(service) - median(answered)).toFixed(2)} s; its compute, each stage alone in this process (median of ${RUNS}):`);
    const stages = await stageSeconds(requestBody);
    for (const [name, stage] of stages) console.log(`  ${stage.toFixed(3).padStart(7)} s  ${name}`);
    const accounted = stages.reduce((sum, [, stage]) => sum + stage, 0);
    console.log(`  ${Math.max(0, median(service) - accounted).toFixed(3).padStart(7)} s  the rest: HTTP client to edge to origin and back, the R2 store, the signed download`);
    const before = peakRssMB(pid);
    const largest = await largestAsJob(pair);
    console.log(`origin peak RSS (VmHWM): ${atStart} MB once started; ${before} MB after the 200,000-cell requests; ${peakRssMB(pid)} MB after the largest body the API accepts (${largest.bytes} bytes, ${largest.cells} cells, as a job, done in ${largest.seconds.toFixed(1)} s)  target < 200 MB`);
  } finally {
    await pair.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
