// A workbook request read off the edge's stream as it arrives (contracts/origin/xlsx-request-lines.ts):
// the head line whole, then the rows as the writer asks for them, a whole line of rows at a time. So the origin holds the head, a chunk and the rows it is writing, never
// the body or its parse tree (the largest body held both, 395 MB of peak RSS), and a queued call
// leaves its body unread in the socket until the writer starts.
import type { XlsxRequestHead } from "../../contracts/origin/xlsx-request-lines.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { XlsxRequest, XlsxRow } from "../../contracts/xlsx-request.ts";
import { rowsInMemory, type SheetRows } from "./sheet-rows.ts";

const NEWLINE = 0x0a;

function malformed(detail: string): ProblemError {
  return new ProblemError("invalid_json", `The workbook request is not valid JSON: ${detail}`);
}

function parsed(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformed(what);
  }
}

function rowsOn(line: string): XlsxRow[] {
  const rows = parsed(line, "a line of rows does not parse");
  if (!Array.isArray(rows)) throw malformed("a line of rows is not an array");
  return rows as XlsxRow[];
}

/** The request with each sheet's rows taken out, and the rows to read for each sheet. */
export interface StreamedXlsxRequest {
  request: XlsxRequest;
  rows: SheetRows[];
  /** Resolves once the body has ended right after the last row; rejects if more follows. */
  readonly end: () => Promise<void>;
}

export class XlsxRequestStream {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Bytes read past the last whole line. */
  private partial: Buffer[] = [];
  /** Rows parsed but not yet taken by their sheet. */
  private spare: XlsxRow[] = [];

  constructor(body: ReadableStream<Uint8Array> | null) {
    this.reader = (body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() })).getReader();
  }

  /** Reads the head line; the rows are read later, as each sheet's writer takes them. */
  async request(): Promise<StreamedXlsxRequest> {
    const head = await this.headLine();
    const request = parsed(head.text, "its first line does not parse") as XlsxRequestHead | null;
    if (request === null || typeof request !== "object" || !Array.isArray(request.sheets)) throw malformed("no sheets");
    if (request.sheets.some((sheet: unknown) => sheet === null || typeof sheet !== "object")) throw malformed("a sheet is not an object");
    const rows = request.sheets.map((sheet): SheetRows => {
      if (Array.isArray(sheet.rows)) return rowsInMemory(sheet.rows);
      const count = sheet.rows;
      if (!Number.isSafeInteger(count) || count < 0) throw malformed("a sheet's rows are neither an array nor a count");
      if (!head.linesFollow && count > 0) throw malformed("rows are counted but none follow");
      return this.sheetRows(count);
    });
    const sheets = request.sheets.map((sheet) => ({ ...sheet, rows: Array.isArray(sheet.rows) ? sheet.rows : [] }));
    return { request: { ...request, sheets }, rows, end: () => this.end() };
  }

  private async headLine(): Promise<{ text: string; linesFollow: boolean }> {
    const pieces: Buffer[] = [];
    for (;;) {
      const chunk = await this.read();
      if (chunk === null) return { text: Buffer.concat(pieces).toString("utf8"), linesFollow: false };
      const newline = chunk.indexOf(NEWLINE);
      if (newline < 0) {
        pieces.push(chunk);
        continue;
      }
      pieces.push(chunk.subarray(0, newline));
      this.partial = [chunk.subarray(newline + 1)];
      return { text: Buffer.concat(pieces).toString("utf8"), linesFollow: true };
    }
  }

  private sheetRows(count: number): SheetRows {
    const take = (max: number) => this.take(max);
    return {
      count,
      async *batches() {
        for (let left = count; left > 0; ) {
          const rows = await take(left);
          left -= rows.length;
          yield rows;
        }
      },
    };
  }

  /** Up to `max` rows, at least one: those parsed already, else the next chunk's whole lines. */
  private async take(max: number): Promise<XlsxRow[]> {
    if (this.spare.length === 0) this.spare = await this.nextLines();
    if (this.spare.length === 0) throw malformed("it ends before its last row");
    if (this.spare.length <= max) {
      const rows = this.spare;
      this.spare = [];
      return rows;
    }
    const rows = this.spare.slice(0, max);
    this.spare = this.spare.slice(max);
    return rows;
  }

  /** The rows on the next whole lines; none at the end of the body. */
  private async nextLines(): Promise<XlsxRow[]> {
    for (;;) {
      const lines = this.wholeLines();
      if (lines !== null) {
        const rows = lines.split("\n").flatMap((line) => (line.length === 0 ? [] : rowsOn(line)));
        if (rows.length > 0) return rows;
        continue;
      }
      const chunk = await this.read();
      if (chunk === null) {
        if (this.partial.some((piece) => piece.length > 0)) throw malformed("its last row line is cut short");
        return [];
      }
      this.partial.push(chunk);
    }
  }

  /** The whole lines read so far, as text; only the last piece read can hold a line break. */
  private wholeLines(): string | null {
    const last = this.partial.at(-1);
    if (last === undefined) return null;
    const newline = last.lastIndexOf(NEWLINE);
    if (newline < 0) return null;
    const text = Buffer.concat([...this.partial.slice(0, -1), last.subarray(0, newline + 1)]).toString("utf8");
    this.partial = [last.subarray(newline + 1)];
    return text;
  }

  private async end(): Promise<void> {
    if (this.spare.length > 0 || (await this.nextLines()).length > 0) throw malformed("more rows follow than its sheets count");
  }

  private async read(): Promise<Buffer | null> {
    const { done, value } = await this.reader.read();
    if (done) return null;
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
}
