import { writeFile } from "node:fs/promises";
import { decodeBase64 } from "../../contracts/encoding/base64.ts";
import type { components, RequestBody } from "../../clients/ts/index.ts";
import { CliError } from "../cli-error.ts";
import { requireEndpoint, type Connection } from "../connection.ts";
import { PDF_PROFILES } from "../../contracts/pdf-options.ts";
import { formatMicros } from "../../contracts/pricing.ts";
import { formatTable } from "../format.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { outputPathFor, overwritesSource } from "../output-path.ts";
import { compressedPdfName } from "../../contracts/derived-file-name.ts";
import { download, loadSource } from "../source-file.ts";

const COMPRESS_PATH = "/v1/pdf/compress";
const ANALYZE_PATH = "/v1/pdf/analyze";

export interface PdfFlags {
  profile?: string;
  out?: string;
  overwrite?: boolean;
}

type PdfCompressRequest = RequestBody<"/v1/pdf/compress">;
type PdfProfile = NonNullable<NonNullable<PdfCompressRequest["options"]>["profile"]>;
type PdfImageReport = components["schemas"]["PdfImageReport"];

function isProfile(value: string): value is PdfProfile {
  return PDF_PROFILES.some((profile) => profile === value);
}

function compressOptions(flags: PdfFlags): NonNullable<PdfCompressRequest["options"]> {
  if (flags.profile === undefined) return {};
  if (!isProfile(flags.profile)) throw new CliError(`--profile must be one of ${PDF_PROFILES.join(", ")}, not ${flags.profile}`);
  return { profile: flags.profile };
}

type Output = { write(text: string): unknown };

function onlyFile(files: string[], command: string): string {
  if (files.length !== 1) throw new CliError(`pdf ${command} takes exactly one file`);
  return files[0]!;
}

export async function pdfCompressCommand(connection: Connection, files: string[], flags: PdfFlags, out: Output): Promise<number> {
  const file = onlyFile(files, "compress");
  await requireEndpoint(connection.baseUrl, COMPRESS_PATH);
  const output = flags.out ?? outputPathFor(file, compressedPdfName(file));
  if (!flags.overwrite && overwritesSource(output, [file])) throw new CliError(`${output} is the source file; pass --overwrite to replace it`);
  const options = compressOptions(flags);
  const loaded = await loadSource(connection, file);
  const result = await connection.client.pdf.compress({ source: loaded.source, options }, { wait: true });
  const bytes = result.base64 ? decodeBase64(result.base64) : await download(result.url!);
  await writeFile(output, bytes);
  const { stats } = result;
  out.write(
    `${formatTable(
      ["file", "profile", "input", "output", "saved", "images rewritten", "kept", "cost"],
      [[output, stats.profile, formatByteSize(stats.original_bytes), formatByteSize(stats.output_bytes), formatByteSize(stats.original_bytes - stats.output_bytes), String(stats.images_rewritten), String(stats.images_kept), formatMicros(result.billing.charged_micros)]],
    )}\n${result.returned_original ? "The PDF could not be made smaller: the original came back, not charged.\n" : ""}${result.warnings.map((warning) => `warning (${warning.code}): ${warning.detail}\n`).join("")}spent ${formatMicros(result.billing.charged_micros)}\n`,
  );
  return 0;
}

const IMAGE_COLUMNS = ["object_number", "pages", "size", "colorspace", "filters", "bytes", "effective_dpi", "estimated_jpeg_quality"];

function dimension(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function imageRow(image: PdfImageReport): string[] {
  const quality = image.estimated_jpeg_quality === null ? "" : `${image.estimated_jpeg_quality} (${image.estimated_jpeg_encoder})`;
  return [
    String(image.object_number),
    image.pages.join(","),
    `${image.width}×${image.height}`,
    image.colorspace.base === null ? image.colorspace.family : `${image.colorspace.family}/${image.colorspace.base.family}`,
    image.filters.join(","),
    String(image.bytes),
    image.effective_dpi === null ? "" : dimension(image.effective_dpi),
    quality,
  ];
}

const PROJECTION_COLUMNS = ["profile", "estimated_bytes", "savings_bytes", "savings_ratio", "quality_risk", "images_rewritten"];

export async function pdfAnalyzeCommand(connection: Connection, files: string[], out: Output): Promise<number> {
  const file = onlyFile(files, "analyze");
  await requireEndpoint(connection.baseUrl, ANALYZE_PATH);
  const loaded = await loadSource(connection, file);
  const analysis = await connection.client.pdf.analyze({ source: loaded.source }, { wait: true });
  const { composition } = analysis;
  const projection = Object.entries(analysis.projection).map(([profile, figures]) => [
    profile,
    String(figures.estimated_bytes),
    String(figures.savings_bytes),
    figures.savings_ratio.toFixed(3),
    figures.quality_risk,
    String(figures.images_rewritten),
  ]);
  out.write(
    `${file}: PDF ${composition.version}, ${composition.pages} pages, ${formatByteSize(composition.total_bytes)}\n\n` +
      `Images (${analysis.images.length})\n${analysis.images.length ? formatTable(IMAGE_COLUMNS, analysis.images.map(imageRow)) : "(none)"}\n\n` +
      `Projection by profile\n${formatTable(PROJECTION_COLUMNS, projection)}\n` +
      `spent ${formatMicros(analysis.billing.charged_micros)}\n`,
  );
  return 0;
}
