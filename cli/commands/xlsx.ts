import { readFile, writeFile } from "node:fs/promises";
import { decodeBase64 } from "../../contracts/encoding/base64.ts";
import { basename, dirname, extname, join } from "node:path";
import { xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { CliError } from "../cli-error.ts";
import type { Connection } from "../connection.ts";
import { formatMicros } from "../../contracts/pricing.ts";
import { formatTable } from "../format.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { overwritesSource } from "../output-path.ts";
import { download } from "../source-file.ts";

export interface XlsxFlags {
  out?: string;
  overwrite?: boolean;
}

/** `xlsx book.json`: the file is a /v1/xlsx/generate request body; the workbook is written beside it. */
export async function xlsxCommand(connection: Connection, files: string[], flags: XlsxFlags, out: { write(text: string): unknown }): Promise<number> {
  if (files.length !== 1) throw new CliError("xlsx takes exactly one JSON file (a /v1/xlsx/generate request body)");
  const file = files[0]!;
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new CliError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The same schema the service checks with, so a mistake is named before anything is sent.
  const request = xlsxRequestSchema.safeParse(raw);
  if (!request.success) {
    throw new CliError(`${file} is not a /v1/xlsx/generate request:\n${request.error.issues.map((issue) => `  /${issue.path.join("/")}: ${issue.message}`).join("\n")}`);
  }
  const result = await connection.client.xlsx.generate(request.data, { wait: true });
  const output = flags.out ?? join(dirname(file), result.filename ?? `${basename(file, extname(file))}.xlsx`);
  if (!flags.overwrite && overwritesSource(output, [file])) throw new CliError(`${output} is the source file; pass --overwrite to replace it`);
  const bytes = result.base64 ? decodeBase64(result.base64) : await download(result.url!);
  await writeFile(output, bytes);
  out.write(
    `${formatTable(["file", "sheets", "rows", "cells", "size", "cost"], [[output, String(result.stats.sheets), String(result.stats.rows), String(result.stats.cells), formatByteSize(bytes.byteLength), formatMicros(result.billing.charged_micros)]])}\nspent ${formatMicros(result.billing.charged_micros)}\n`,
  );
  return 0;
}
