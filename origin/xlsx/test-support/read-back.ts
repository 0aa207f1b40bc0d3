// Reading a written workbook back for the writer's tests: the zip's parts as SheetJS parses them,
// a part's text, the attributes of an XML element, and the problem a refused request raises.
import { Writable } from "node:stream";
import { expect } from "vitest";
import * as XLSX from "xlsx";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { xlsxRequestSchema } from "../../../contracts/xlsx-request.ts";
import { generateXlsx } from "../generate-xlsx.ts";

export type Book = XLSX.WorkBook & { files: Record<string, { content: Uint8Array }> };

/** The workbook the writer makes of `input`, read back with SheetJS's `options` and its raw parts. */
export async function builtWorkbook(input: unknown, options: XLSX.ParsingOptions = {}): Promise<Book> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await generateXlsx(xlsxRequestSchema.parse(input), sink);
  return XLSX.read(Buffer.concat(chunks), { ...options, type: "buffer", bookFiles: true }) as Book;
}

export function bytesOf(book: Book, path: string): Buffer {
  const file = book.files[path];
  if (!file) throw new Error(`no ${path} in the zip; have ${Object.keys(book.files).join(", ")}`);
  return Buffer.from(file.content);
}

export function part(book: Book, path: string): string {
  return bytesOf(book, path).toString("utf8");
}

export function attributesOf(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${tag}\\b([^>]*?)/?>`, "g"))].map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w:]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

export async function refusal(input: unknown): Promise<ProblemError> {
  const error = await generateXlsx(xlsxRequestSchema.parse(input), new Writable({ write: (_c, _e, cb) => cb() })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}
