import { stat } from "node:fs/promises";
import { glob } from "tinyglobby";
import { CliError } from "./cli-error.ts";

const GLOB_CHARACTERS = /[*?[\]{}]/;

/** Files named or matched by each argument (shells without globbing pass patterns through), in order, once each. */
export async function expandInputs(patterns: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    if (!GLOB_CHARACTERS.test(pattern)) {
      const info = await stat(pattern).catch(() => undefined);
      if (!info?.isFile()) throw new CliError(`${pattern}: no such file`);
      files.push(pattern);
      continue;
    }
    // tinyglobby rather than node:fs/promises' glob, which Node 20 lacks; it matches files only and
    // answers relative to the working directory, as the shell would.
    const matched = await glob(pattern, { onlyFiles: true, expandDirectories: false });
    if (matched.length === 0) throw new CliError(`${pattern}: matched no files`);
    files.push(...matched.sort());
  }
  return [...new Set(files)];
}
