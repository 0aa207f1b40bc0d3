import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { xlsxRequestLines } from "../../contracts/origin/xlsx-request-lines.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { assertXlsxWritable, xlsxRequestSchema, type XlsxRequest } from "../../contracts/xlsx-request.ts";
import { generateXlsx } from "./generate-xlsx.ts";
import { XlsxRequestStream } from "./request-stream.ts";

/** The edge's bytes handed over `size` at a time; `pulled` is called as each piece is asked for. */
function chunked(bytes: Buffer, size: number, pulled: (index: number, last: boolean) => void = () => undefined): ReadableStream<Uint8Array> {
  let at = 0;
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      pulled(index++, at + size >= bytes.length);
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

class Sink extends Writable {
  bytes = 0;
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.bytes += chunk.length;
    this.chunks.push(chunk);
    callback();
  }
}

/** What the origin's route does with a body: read the head, write the rows as they come, check nothing follows. */
async function written(body: ReadableStream<Uint8Array>, sink = new Sink()): Promise<Buffer> {
  const { request, rows, end } = await new XlsxRequestStream(body).request();
  await generateXlsx(request, sink, { rows });
  await end();
  return Buffer.concat(sink.chunks);
}

function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  return promise.then(
    () => {
      throw new Error("expected a problem");
    },
    (error: unknown) => {
      if (!(error instanceof ProblemError)) throw error;
      return error;
    },
  );
}

function rowsOf(book: XLSX.WorkBook, sheet: string): unknown[][] {
  return XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[sheet]!, { header: 1, defval: null });
}

const priceColumns = [
  { key: "name", header: "Name", type: "string" },
  { key: "price", header: "Price", type: "number" },
];

const twoSheets: XlsxRequest = xlsxRequestSchema.parse({
  filename: "two.xlsx",
  sheets: [
    {
      name: "Prices",
      columns: priceColumns,
      rows: [["Ünïcödé — 日本語 \u2028 with\nbreak", 1.5], { name: "object row", price: 2 }, ["=1+1", null]],
      cells: { D1: { value: "note" } },
    },
    { name: "Counts", columns: [{ key: "n", type: "integer" }], rows: Array.from({ length: 500 }, (_, i) => [i]) },
  ],
});

describe("XlsxRequestStream", () => {
  it("writes every row however the edge's bytes are cut, multi-byte text split across pieces included", async () => {
    const lines = Buffer.from(xlsxRequestLines(twoSheets));
    for (const size of [1, 3, 64, 1000, lines.length]) {
      const book = XLSX.read(await written(chunked(lines, size)), { type: "buffer" });
      const prices = rowsOf(book, "Prices");
      expect(prices.slice(0, 4)).toEqual([
        ["Name", "Price", null, "note"],
        ["Ünïcödé — 日本語 \u2028 with\nbreak", 1.5, null, null],
        ["object row", 2, null, null],
        ["=1+1", null, null, null],
      ]);
      const counts = rowsOf(book, "Counts");
      expect(counts).toHaveLength(500);
      expect(counts[499]).toEqual([499]);
    }
  });

  it("writes rows while the body is still arriving, so neither the body nor its rows are held whole", async () => {
    const request = xlsxRequestSchema.parse({
      sheets: [{ name: "Big", columns: [{ key: "a" }, { key: "b", type: "number" }], rows: Array.from({ length: 40_000 }, (_, i) => [`value ${i} ${"x".repeat(i % 50)}`, i]) }],
    });
    const sink = new Sink();
    let writtenBeforeLastPiece = -1;
    const body = chunked(Buffer.from(xlsxRequestLines(request)), 16 * 1024, (_index, last) => {
      if (last) writtenBeforeLastPiece = sink.bytes;
    });
    const book = XLSX.read(await written(body, sink), { type: "buffer" });
    expect(rowsOf(book, "Big")[39_999]).toEqual(["value 39999 " + "x".repeat(39_999 % 50), 39_999]);
    // Held whole, the body would be parsed before the first byte of the workbook was written.
    expect(writtenBeforeLastPiece).toBeGreaterThan(sink.bytes / 2);
  });

  it("takes a request sent as one JSON document, as a job stored before the lines were", async () => {
    const book = XLSX.read(await written(chunked(Buffer.from(JSON.stringify(twoSheets)), 100)), { type: "buffer" });
    expect(rowsOf(book, "Counts")).toHaveLength(500);
    expect(rowsOf(book, "Prices")[2]).toEqual(["object row", 2, null, null]);
  });

  it("refuses a bad cell deep in the rows with the problem the whole request's check gives, the workbook left unfinished", async () => {
    const rows: unknown[][] = Array.from({ length: 30_000 }, (_, i) => [`row ${i}`, i]);
    rows[29_000] = ["fine", "not a number"];
    rows[29_500] = ["x".repeat(32_768), 1];
    const request = xlsxRequestSchema.parse({ sheets: [{ name: "S", columns: [{ key: "a" }, { key: "b", type: "number" }], rows }] });
    const expected = await problemOf(Promise.resolve().then(() => assertXlsxWritable(request, "inline")));
    const sink = new Sink();
    const problem = await problemOf(written(chunked(Buffer.from(xlsxRequestLines(request)), 8 * 1024), sink));
    expect(problem).toMatchObject({ slug: "validation_failed", status: 400 });
    expect(problem.message).toBe(expected.message);
    expect(problem.errors).toEqual(expected.errors);
    expect(problem.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/rows/29000/1"]);
    // Rows before it were written, but the workbook never ends: the route sends nothing but the problem.
    expect(sink.bytes).toBeGreaterThan(0);
    expect(sink.writableFinished).toBe(false);
  });

  it("reads and checks every row, writing nothing, when the rest of the request already fails", async () => {
    const request = xlsxRequestSchema.parse({
      styles: {},
      sheets: [
        { name: "A", header_style: "missing", columns: [{ key: "a", type: "date" }], rows: [["2026-01-01"], ["01/02/2026"]] },
        { name: "a", columns: [{ key: "b", type: "string" }], rows: [["x".repeat(32_768)]] },
      ],
    });
    const expected = await problemOf(Promise.resolve().then(() => assertXlsxWritable(request, "inline")));
    const sink = new Sink();
    const problem = await problemOf(written(chunked(Buffer.from(xlsxRequestLines(request)), 5), sink));
    expect({ message: problem.message, errors: problem.errors }).toEqual({ message: expected.message, errors: expected.errors });
    expect(problem.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/header_style", "/sheets/0/rows/1/0"]);
    expect(sink.bytes).toBe(0);
  });

  it("refuses a body that is not the lines it should be with 400 invalid_json", async () => {
    const request = xlsxRequestSchema.parse({ sheets: [{ name: "S", columns: [{ key: "a" }], rows: [["one"], ["two"]] }] });
    const lines = xlsxRequestLines(request);
    const head = lines.slice(0, lines.indexOf("\n") + 1);
    const bodies = {
      "cut short": lines.slice(0, -4),
      "a row missing": `${head}[["one"]]\n`,
      "a row too many": `${lines}[["three"]]\n`,
      "a line that is not an array of rows": `${head}{"0":["one"],"1":["two"]}\n`,
      "a line that does not parse": `${head}[["one"],["two"],]\n`,
      "a head that does not parse": `{"sheets": [\n["one"],\n`,
      "no sheets": `{}\n`,
      "a sheet that is not an object": `{"sheets":[null]}\n`,
      "rows neither counted nor given": lines.replace('"rows":2', '"rows":"2"'),
      "empty": "",
    };
    for (const [name, body] of Object.entries(bodies)) {
      const problem = await problemOf(written(chunked(Buffer.from(body), 7)));
      expect({ name, slug: problem.slug, status: problem.status }).toEqual({ name, slug: "invalid_json", status: 400 });
    }
  });
});
