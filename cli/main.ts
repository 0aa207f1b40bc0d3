// pixelpress: the command-line client's commands and usage; bin.ts runs it.
import { parseArgs } from "node:util";
import { PixelPressError } from "../clients/ts/index.ts";
import { PDF_PROFILES } from "../contracts/pdf-options.ts";
import { CliError } from "./cli-error.ts";
import { optimizeCommand } from "./commands/optimize.ts";
import { pdfAnalyzeCommand, pdfCompressCommand } from "./commands/pdf.ts";
import { xlsxCommand } from "./commands/xlsx.ts";
import { connect } from "./connection.ts";

export const USAGE = `Usage: pixelpress <command> [options]

  optimize <files or globs...> [--width N] [--height N] [--format source|auto|jpeg|png|webp|avif]
                               [--quality N|auto|auto:low|auto:eco|auto:good|auto:best] [--out DIR] [--concurrency N] [--overwrite]
  pdf compress <file.pdf> [--profile ${PDF_PROFILES.join("|")}] [--out FILE] [--overwrite]
  pdf analyze <file.pdf>
  xlsx <request.json> [--out FILE] [--overwrite]

  --api-key KEY   default: $API_KEY
  --api-url URL   default: $API_URL, else http://127.0.0.1:8787

Paths are relative to the directory you run it in. Outputs are written beside their inputs unless
--out names a place. Files over 20 MB go through a presigned upload. A source file is never
overwritten without --overwrite.
Exits 1 when any item failed.`;

const OPTIONS = {
  "api-key": { type: "string" },
  "api-url": { type: "string" },
  width: { type: "string" },
  height: { type: "string" },
  format: { type: "string" },
  quality: { type: "string" },
  out: { type: "string", short: "o" },
  concurrency: { type: "string" },
  profile: { type: "string" },
  overwrite: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function main(argv: string[], stdout: NodeJS.WriteStream = process.stdout): Promise<number> {
  const { values: flags, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, ...rest] = positionals;
  if (flags.help || !command) {
    stdout.write(`${USAGE}\n`);
    return command || flags.help ? 0 : 2;
  }
  switch (command) {
    case "optimize":
      return optimizeCommand(connect(flags), rest, flags, stdout);
    case "pdf": {
      const [sub, ...files] = rest;
      if (sub === "compress") return pdfCompressCommand(connect(flags), files, flags, stdout);
      if (sub === "analyze") return pdfAnalyzeCommand(connect(flags), files, stdout);
      throw new CliError(`unknown pdf command ${sub ?? "(none)"}: use pdf compress or pdf analyze`);
    }
    case "xlsx":
      return xlsxCommand(connect(flags), rest, flags, stdout);
    default:
      throw new CliError(`unknown command ${command}\n\n${USAGE}`);
  }
}

/** What to print for a failure: the problem and its fields for API errors, the message for usage errors, a stack otherwise. */
export function describeFailure(error: unknown): string {
  if (error instanceof PixelPressError) {
    const fields = (error.problem.errors ?? []).map((field) => `\n  ${field.pointer}: ${field.detail}`).join("");
    return `${error.message}${fields}${error.problem.request_id ? `\n  request_id: ${error.problem.request_id}` : ""}`;
  }
  if (error instanceof CliError) return error.message;
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) return `${error.message}\n\n${USAGE}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
