import { writeFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import type { OperationPath } from "../../clients/ts/index.ts";
import { CliError } from "../cli-error.ts";
import { requireEndpoint, type Connection } from "../connection.ts";
import { formatBytes, formatMicros, formatTable } from "../format.ts";
import { overwritesSource } from "../output-path.ts";
import { download, loadSource } from "../source-file.ts";

const COMPRESS_PATH = "/v1/pdf/compress";
const ANALYZE_PATH = "/v1/pdf/analyze";

export interface PdfFlags {
  profile?: string;
  out?: string;
  overwrite?: boolean;
}

interface Delivered {
  url?: string | null;
  base64?: string;
  billing: { charged_micros: number };
}
interface CompressResult extends Delivered {
  returned_original: boolean;
  warnings: string[];
  stats: { original_bytes: number; output_bytes: number; profile: string; images_rewritten: number; images_kept: number };
}
interface Analysis {
  composition: { pages: number; total_bytes: number; version: string };
  images: Record<string, unknown>[];
  projection: Record<string, Record<string, unknown>>;
  billing: { charged_micros: number };
}

type Output = { write(text: string): unknown };

function onlyFile(files: string[], command: string): string {
  if (files.length !== 1) throw new CliError(`pdf ${command} takes exactly one file`);
  return files[0]!;
}

export async function pdfCompressCommand(connection: Connection, files: string[], flags: PdfFlags, out: Output): Promise<number> {
  const file = onlyFile(files, "compress");
  await requireEndpoint(connection.baseUrl, COMPRESS_PATH);
  const output = flags.out ?? join(".", `${basename(file, extname(file))}.compressed.pdf`);
  if (!flags.overwrite && overwritesSource(output, [file])) throw new CliError(`${output} is the source file; pass --overwrite to replace it`);
  const loaded = await loadSource(connection, file);
  const result = (await connection.client.run(
    COMPRESS_PATH as OperationPath,
    { source: loaded.source, options: flags.profile ? { profile: flags.profile } : {} },
    { wait: true },
  )) as CompressResult;
  const bytes = result.base64 ? Buffer.from(result.base64, "base64") : await download(result.url!);
  await writeFile(output, bytes);
  const { stats } = result;
  out.write(
    `${formatTable(
      ["file", "profile", "input", "output", "saved", "images rewritten", "kept", "cost"],
      [[output, stats.profile, formatBytes(stats.original_bytes), formatBytes(stats.output_bytes), formatBytes(stats.original_bytes - stats.output_bytes), String(stats.images_rewritten), String(stats.images_kept), formatMicros(result.billing.charged_micros)]],
    )}\n${result.returned_original ? "The PDF could not be made smaller: the original came back, not charged.\n" : ""}${result.warnings.map((w) => `warning: ${w}\n`).join("")}spent ${formatMicros(result.billing.charged_micros)}\n`,
  );
  return 0;
}

const IMAGE_COLUMNS = ["object_number", "pages", "width", "height", "colour_space", "filters", "bytes", "effective_dpi", "estimated_jpeg_quality"];

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === false;
}

function cell(value: unknown): string {
  if (isBlank(value)) return "";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(1);
  if (Array.isArray(value)) return value.map(cell).join(",");
  if (typeof value === "object") {
    const fields = value as Record<string, unknown>;
    if (typeof fields.width === "number" && typeof fields.height === "number") return `${cell(fields.width)}×${cell(fields.height)}`;
    return Object.values(fields).filter((field) => !isBlank(field)).map(cell).join("/");
  }
  return String(value);
}

/** Records as a table: the `first` columns, then any other, leaving out columns empty in every row. */
function recordTable(records: Record<string, unknown>[], first: string[] = []): string {
  const columns = [...new Set([...first, ...records.flatMap((record) => Object.keys(record))])].filter((column) =>
    records.some((record) => !isBlank(record[column])),
  );
  return formatTable(columns, records.map((record) => columns.map((column) => cell(record[column]))));
}

export async function pdfAnalyzeCommand(connection: Connection, files: string[], out: Output): Promise<number> {
  const file = onlyFile(files, "analyze");
  await requireEndpoint(connection.baseUrl, ANALYZE_PATH);
  const loaded = await loadSource(connection, file);
  const analysis = (await connection.client.run(ANALYZE_PATH as OperationPath, { source: loaded.source })) as Analysis;
  const { composition } = analysis;
  const projection = Object.entries(analysis.projection).map(([profile, figures]) => ({ profile, ...figures }));
  out.write(
    `${file}: PDF ${composition.version}, ${composition.pages} pages, ${formatBytes(composition.total_bytes)}\n\n` +
      `Images (${analysis.images.length})\n${analysis.images.length ? recordTable(analysis.images, IMAGE_COLUMNS) : "(none)"}\n\n` +
      `Projection by profile\n${recordTable(projection, ["profile"])}\n` +
      `spent ${formatMicros(analysis.billing.charged_micros)}\n`,
  );
  return 0;
}
