import { mkdir, readFile, writeFile } from "node:fs/promises";
import { decodeBase64 } from "../../contracts/encoding/base64.ts";
import { basename } from "node:path";
import { IMAGE_FORMAT_CHOICES, imageOptionsSchema, type ImageOptions, type ImageOutputFormat } from "../../contracts/image-options.ts";
import { AUTO_QUALITY_VALUES } from "../../contracts/perceptual-quality.ts";
import { gifFamily, SOURCE_FAMILY } from "../../contracts/image-source-family.ts";
import { CliError } from "../cli-error.ts";
import type { Connection } from "../connection.ts";
import { expandInputs } from "../expand-inputs.ts";
import { formatMicros } from "../../contracts/pricing.ts";
import { formatTable } from "../format.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { imageFormatOfFile, isAnimatedGif } from "../image-signature.ts";
import { outputPathFor, overwritesSource } from "../output-path.ts";
import { optimizedImageName } from "../../contracts/derived-file-name.ts";
import { Progress, type ProgressStream } from "../progress.ts";
import { retryOnce, RETRY_BACKOFF_MS } from "../retry-once.ts";
import { download, loadSource } from "../source-file.ts";

export interface OptimizeFlags {
  width?: string;
  height?: string;
  format?: string;
  quality?: string;
  out?: string;
  overwrite?: boolean;
  concurrency?: string;
}

interface Row {
  file: string;
  output?: string;
  inputBytes: number;
  outputBytes?: number;
  chargedMicros: number;
  error?: string;
  /** Quality auto missed its level: the output's score (null: its deadline left no time to score it) and the level's target. */
  miss?: { score: number | null; target: number };
}


function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new CliError(`--${name} must be a positive integer, not ${value}`);
  return number;
}

export function imageOptions(flags: OptimizeFlags) {
  return {
    ...(flags.width ? { width: positiveInteger("width", flags.width) } : {}),
    ...(flags.height ? { height: positiveInteger("height", flags.height) } : {}),
    ...(flags.quality ? { quality: quality(flags.quality) } : {}),
    ...(flags.format ? { format: outputFormat(flags.format) } : {}),
  };
}

const formatSchema = imageOptionsSchema.shape.format;
const qualitySchema = imageOptionsSchema.shape.quality;

// A flag is always a string: digits are read as the number the API takes, anything else as an auto spelling.
function quality(value: string) {
  const parsed = qualitySchema.safeParse(/^\d+$/.test(value) ? Number(value) : value);
  if (!parsed.success) throw new CliError(`--quality must be a whole number from 1 to 100 or one of ${AUTO_QUALITY_VALUES.join(", ")}, not ${value}`);
  return parsed.data;
}

function outputFormat(value: string) {
  const parsed = formatSchema.safeParse(value);
  if (!parsed.success) throw new CliError(`--format must be one of ${IMAGE_FORMAT_CHOICES.join(", ")}, not ${value}`);
  return parsed.data;
}

/**
 * The format the reply will have, when the request and the source decide it: a named format, or the
 * source's family (a GIF's by whether it is animated, which the CLI keeps). Undefined when the
 * content decides (`auto`, a TIFF).
 */
async function knownOutputFormat(file: string, format: ImageOptions["format"]): Promise<ImageOutputFormat | undefined> {
  if (format === "auto") return undefined;
  if (format !== "source") return format;
  const source = await imageFormatOfFile(file);
  if (source === "gif") return gifFamily(isAnimatedGif(await readFile(file)));
  return source ? (SOURCE_FAMILY[source] ?? undefined) : undefined;
}

function refuseOverwrite(output: string): never {
  throw new Error(`${output} is a source file; pass --overwrite to replace it`);
}

// What to change when an image ran out of time twice: fewer pixels, or fewer images at once.
const BUSY_ADVICE =
  "The service may be busy or the image large: try --width 1920 (fewer pixels to work on) or --concurrency 1 (one image at a time).";

/** Returns the process exit code: 0 when every image was written, 1 otherwise. `retryBackoffMs`: the wait before a second try (retry-once.ts). */
export async function optimizeCommand(
  connection: Connection,
  patterns: string[],
  flags: OptimizeFlags,
  out: ProgressStream,
  retryBackoffMs = RETRY_BACKOFF_MS,
): Promise<number> {
  if (patterns.length === 0) throw new CliError("optimize needs at least one file or glob");
  const files = await expandInputs(patterns);
  const options = imageOptions(flags);
  const concurrency = positiveInteger("concurrency", flags.concurrency) ?? 4;
  if (flags.out) await mkdir(flags.out, { recursive: true });

  const rows: Row[] = [];
  const progress = new Progress(out, files.length);
  const limit = concurrencyLimit(concurrency);
  await Promise.all(files.map((file) => limit(async () => {
    const row: Row = { file, inputBytes: 0, chargedMicros: 0 };
    rows.push(row);
    try {
      // Refused here when the output's name is known, so an overwrite is never charged for.
      const knownFormat = await knownOutputFormat(file, options.format ?? "source");
      const known = knownFormat ? outputPathFor(file, optimizedImageName(file, knownFormat), flags.out) : undefined;
      if (known && !flags.overwrite && overwritesSource(known, files)) refuseOverwrite(known);
      const loaded = await loadSource(connection, file);
      row.inputBytes = loaded.bytes;
      const optimize = () =>
        connection.client.image.optimize(
          { source: loaded.source, options, ...(loaded.uploaded ? { mode: "async" as const } : {}) },
          {
            wait: true,
            onProgress: (job) => {
              if (job.progress_detail) progress.update(basename(file), job.progress_detail.done, job.progress_detail.total);
            },
          },
        );
      const result = await retryOnce(optimize, BUSY_ADVICE, retryBackoffMs);
      row.chargedMicros = result.billing.charged_micros;
      // The reply of an older service has no target fields; only an explicit false is a miss.
      const { score, quality_target: target, target_met: met } = result.stats ?? {};
      if (met === false && typeof target === "number") row.miss = { score: typeof score === "number" ? score : null, target };
      const output = outputPathFor(file, optimizedImageName(file, result.format), flags.out);
      if (output !== known && !flags.overwrite && overwritesSource(output, files)) refuseOverwrite(output);
      const bytes = result.base64 ? decodeBase64(result.base64) : await download(result.url!);
      await writeFile(output, bytes);
      row.output = output;
      row.outputBytes = bytes.byteLength;
      progress.finish({
        name: basename(file),
        ok: true,
        inputBytes: row.inputBytes,
        outputBytes: bytes.byteLength,
        detail: `${formatByteSize(row.inputBytes)} → ${formatByteSize(bytes.byteLength)} ${output}`,
      });
    } catch (error) {
      row.error = error instanceof Error ? error.message : String(error);
      progress.finish({ name: basename(file), ok: false, inputBytes: row.inputBytes, detail: row.error });
    }  })));

  progress.end();
  out.write(`\n${summaryTable(rows.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file)))}\n`);
  return rows.some((row) => row.error) ? 1 : 0;
}

function missed({ score, target }: NonNullable<Row["miss"]>): string {
  return score === null ? `not scored against target ${target} (the search ran out of time; its fallback quality was used)` : `score ${score.toFixed(1)} < target ${target}`;
}

function summaryTable(rows: Row[]): string {
  const saved = (row: Row) => (row.outputBytes === undefined ? 0 : row.inputBytes - row.outputBytes);
  const percent = (part: number, whole: number) => (whole === 0 ? "0%" : `${Math.round((part / whole) * 100)}%`);
  const body = rows.map((row) => [
    row.file,
    row.error ? "FAILED" : row.miss ? "below target" : "ok",
    formatByteSize(row.inputBytes),
    row.outputBytes === undefined ? "" : formatByteSize(row.outputBytes),
    row.outputBytes === undefined ? "" : percent(saved(row), row.inputBytes),
    formatMicros(row.chargedMicros),
  ]);
  const ok = rows.filter((row) => !row.error);
  const inputTotal = ok.reduce((sum, row) => sum + row.inputBytes, 0);
  const savedTotal = ok.reduce((sum, row) => sum + saved(row), 0);
  const spent = rows.reduce((sum, row) => sum + row.chargedMicros, 0);
  body.push([
    `total: ${ok.length} ok, ${rows.length - ok.length} failed`,
    "",
    formatByteSize(inputTotal),
    formatByteSize(inputTotal - savedTotal),
    percent(savedTotal, inputTotal),
    formatMicros(spent),
  ]);
  const misses = ok.filter((row) => row.miss).map((row) => `  ${row.file}: ${missed(row.miss!)}`);
  const missSummary = misses.length === 0 ? "" : `\n${misses.length} below their quality target:\n${misses.join("\n")}`;
  return `${formatTable(["file", "status", "input", "output", "saved", "cost"], body)}${missSummary}\nspent ${formatMicros(spent)}`;
}
